// `settings.update(record.settings)` for the dash.js settings the rules read (core/Settings.js names). A key this
// model does not carry is refused rather than ignored, so a record never replays under settings it did not ask for.

extension DashJSSettings {
    mutating func update(from json: LocatedJSON, file: String) throws(InputError) {
        try Self.walk(json, path: "settings", file: file) { (path: String, value: LocatedJSON) throws(InputError) in
            try self.set(path, value, file: file)
        }
    }

    private static func walk(_ json: LocatedJSON, path: String, file: String,
                             _ leaf: (String, LocatedJSON) throws(InputError) -> Void) throws(InputError) {
        // `playbackRate` is a leaf object; everything else recurses to scalars.
        if case .object(let members) = json.value, !path.hasSuffix(".liveCatchup.playbackRate") {
            for (key, value) in members { try walk(value, path: path + "." + key, file: file, leaf) }
        } else if case .object(let members) = json.value {
            for (key, value) in members { try leaf(path + "." + key, value) }
        } else {
            try leaf(path, json)
        }
    }

    private mutating func set(_ path: String, _ value: LocatedJSON, file: String) throws(InputError) {
        let key = path.dropFirst("settings.streaming.".count)
        func number() throws(InputError) -> Double {
            if case .null = value.value { return .nan }
            return try value.number(file: file, what: path)
        }
        func flag() throws(InputError) -> Bool {
            guard case .bool(let flag) = value.value else { throw InputError(file: file, line: value.line, "\(path) must be a boolean") }
            return flag
        }
        func text() throws(InputError) -> String {
            guard case .string(let text) = value.value else { throw InputError(file: file, line: value.line, "\(path) must be a string") }
            return text
        }
        let rules: [(String, WritableKeyPath<DashJSSettings, DashJSRuleSetting>)] = [
            ("throughputRule", \.throughputRule), ("bolaRule", \.bolaRule), ("insufficientBufferRule", \.insufficientBufferRule),
            ("switchHistoryRule", \.switchHistoryRule), ("droppedFramesRule", \.droppedFramesRule),
            ("abandonRequestsRule", \.abandonRequestsRule), ("l2ARule", \.l2ARule), ("loLPRule", \.loLPRule)]
        for (name, keyPath) in rules {
            if key == "abr.rules.\(name).active" { self[keyPath: keyPath].active = try flag(); return }
            if key == "abr.rules.\(name).priority" { self[keyPath: keyPath].priority = try number(); return }
        }
        let numbers: [String: WritableKeyPath<DashJSSettings, Double>] = [
            "abr.rules.insufficientBufferRule.parameters.throughputSafetyFactor": \.insufficientBufferThroughputSafetyFactor,
            "abr.rules.switchHistoryRule.parameters.switchPercentageThreshold": \.switchHistorySwitchPercentageThreshold,
            "abr.rules.droppedFramesRule.parameters.minimumSampleSize": \.droppedFramesMinimumSampleSize,
            "abr.rules.droppedFramesRule.parameters.droppedFramesPercentageThreshold": \.droppedFramesPercentageThreshold,
            "abr.rules.abandonRequestsRule.parameters.abandonDurationMultiplier": \.abandonDurationMultiplier,
            "abr.rules.abandonRequestsRule.parameters.minSegmentDownloadTimeThresholdInMs": \.abandonMinSegmentDownloadTimeThresholdMs,
            "abr.throughput.bandwidthSafetyFactor": \.bandwidthSafetyFactor,
            "abr.throughput.sampleSettings.decreaseScale": \.decreaseScale,
            "abr.throughput.sampleSettings.increaseScale": \.increaseScale,
            "abr.throughput.ewma.throughputSlowHalfLifeSeconds": \.throughputSlowHalfLifeSeconds,
            "abr.throughput.ewma.throughputFastHalfLifeSeconds": \.throughputFastHalfLifeSeconds,
            "abr.throughput.ewma.latencySlowHalfLifeCount": \.latencySlowHalfLifeCount,
            "abr.throughput.ewma.latencyFastHalfLifeCount": \.latencyFastHalfLifeCount,
            "abr.throughput.ewma.weightDownloadTimeMultiplicationFactor": \.weightDownloadTimeMultiplicationFactor,
            "cacheLoadThresholds.video": \.cacheLoadThresholdVideoMs,
            "buffer.bufferTimeDefault": \.bufferTimeDefaultSeconds,
            "abandonLoadTimeout": \.abandonLoadTimeoutMs,
        ]
        if let keyPath = numbers[String(key)] { self[keyPath: keyPath] = try number(); return }
        let counts: [String: WritableKeyPath<DashJSSettings, Int>] = [
            "abr.rules.insufficientBufferRule.parameters.segmentIgnoreCount": \.insufficientBufferSegmentIgnoreCount,
            "abr.rules.switchHistoryRule.parameters.sampleSize": \.switchHistorySampleSize,
            "abr.rules.abandonRequestsRule.parameters.minThroughputSamplesThreshold": \.abandonMinThroughputSamplesThreshold,
            "abr.throughput.sampleSettings.live": \.sampleSizeLive,
            "abr.throughput.sampleSettings.vod": \.sampleSizeVod,
            "abr.throughput.sampleSettings.maxMeasurementsToKeep": \.maxMeasurementsToKeep,
            "abr.throughput.sampleSettings.averageLatencySampleAmount": \.averageLatencySampleAmount,
        ]
        if let keyPath = counts[String(key)] {
            let count = try number()
            guard count == count.rounded(), abs(count) < 1e9 else { throw InputError(file: file, line: value.line, "\(path) must be a whole number") }
            self[keyPath: keyPath] = Int(count)
            return
        }
        switch key {
        case "abr.throughput.averageCalculationMode":
            let name = try text()
            guard let mode = DashJSAveragingMode(rawValue: name) else {
                throw InputError(file: file, line: value.line, "\(path) \"\(name)\" is not a dash.js averaging mode")
            }
            averagingMode = mode
        case "abr.throughput.useDeadTimeLatency": useDeadTimeLatency = try flag()
        case "abr.throughput.useResourceTimingApi": useResourceTimingApi = try flag()
        case "abr.throughput.sampleSettings.enableSampleSizeAdjustment": enableSampleSizeAdjustment = try flag()
        case "abr.autoSwitchBitrate.video": autoSwitchBitrate = try flag()
        case "liveCatchup.mode": catchupMode = try text()
        case "liveCatchup.enabled":
            if case .null = value.value { catchupEnabled = nil } else { catchupEnabled = try flag() }
        case "liveCatchup.maxDrift": catchupMaxDriftSeconds = try number()
        case "liveCatchup.playbackBufferMin":
            if case .null = value.value { catchupPlaybackBufferMinSeconds = nil } else { catchupPlaybackBufferMinSeconds = try number() }
        case "liveCatchup.playbackRate.min": catchupPlaybackRateMin = try number()
        case "liveCatchup.playbackRate.max": catchupPlaybackRateMax = try number()
        default:
            throw InputError(file: file, line: value.line, "\(path) is a dash.js setting this model does not carry")
        }
    }
}
