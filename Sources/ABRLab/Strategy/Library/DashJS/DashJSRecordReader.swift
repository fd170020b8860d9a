// Reads one E.2 decision record (one JSON Lines line) into a DashJSRecord, with the core's own LocatedJSON.
// Field names and defaults follow replay.mjs (its applyState, applyEvent and Session constructor).

public enum DashJSRecordReader {
    private typealias Members = [(key: String, value: LocatedJSON)]

    public static func read(line text: String, lineNumber: Int, file: String) throws(InputError) -> DashJSRecord {
        try read(json: try LocatedJSON.parse(text, file: file), lineNumber: lineNumber, file: file)
    }

    private static func read(json: LocatedJSON, lineNumber: Int, file: String) throws(InputError) -> DashJSRecord {
        let members = try json.members(file: file, what: "record on line \(lineNumber)")
        let reader = Reader(members: members, file: file, line: lineNumber)
        var record = DashJSRecord(session: try reader.text("session") ?? "default", seq: try reader.number("seq"),
                                  kind: .events, nowMs: try reader.number("nowMs"))
        if let kind = try reader.text("kind") {
            guard let parsed = DashJSRecord.Kind(rawValue: kind) else { throw reader.error("kind \"\(kind)\" is not quality, abandon, catchup or events") }
            record.kind = parsed
        }
        for unsupported in ["serviceDescription", "lastSegment"] {
            if let value = reader[unsupported], !value.isNull { throw reader.error("\(unsupported) is not modelled by the Swift replayer") }
        }
        if reader["representations"] != nil { record.header = try header(reader) }
        record.currentRepresentationId = try reader.identifier("currentRepresentationId")
        record.bufferLevelSeconds = try reader.number("bufferLevel")
        record.bufferState = try reader.text("bufferState")
        record.lowLatencyMode = try reader.flag("lowLatencyMode")
        record.playbackRate = try reader.number("playbackRate")
        record.currentLiveLatencySeconds = try reader.number("currentLiveLatency")
        if let value = reader["liveDelay"] { record.liveDelaySeconds = .some(value.isNull ? nil : try reader.number("liveDelay")) }
        record.timeSeconds = try reader.number("time")
        record.isPaused = try reader.flag("isPaused")
        record.isSeeking = try reader.flag("isSeeking")
        record.playbackStalled = try reader.flag("playbackStalled")
        if let value = reader["playbackBufferLevel"] {
            record.playbackBufferLevelSeconds = .some(value.isNull ? nil : try reader.number("playbackBufferLevel"))
        }
        if let quality = reader["playbackQuality"], !quality.isNull {
            let inner = Reader(members: try quality.members(file: file, what: "playbackQuality"), file: file, line: lineNumber)
            record.playbackQuality = (try inner.number("droppedVideoFrames") ?? 0, try inner.number("totalVideoFrames") ?? 0)
        }
        if let request = reader["request"], !request.isNull {
            let inner = Reader(members: try request.members(file: file, what: "request"), file: file, line: lineNumber)
            record.request = DashJSRecord.AbandonRequest(
                index: try inner.number("index") ?? .nan, representationId: try inner.identifier("representationId"),
                firstByteMs: try inner.number("firstByteMs"), bytesLoaded: try inner.number("bytesLoaded") ?? 0,
                bytesTotal: try inner.number("bytesTotal") ?? .nan, durationSeconds: try inner.number("duration"),
                traces: DashJSTraceLog(try traces(inner)))
        }
        record.probe = try reader.flag("probe") ?? true
        record.followDecision = try reader.flag("followDecision") ?? true
        if let events = reader["events"], !events.isNull {
            for element in try events.elements(file: file, what: "events") {
                let inner = Reader(members: try element.members(file: file, what: "an event"), file: file, line: lineNumber)
                record.events.append(try event(inner))
            }
        }
        return record
    }

    private static func header(_ reader: Reader) throws(InputError) -> DashJSRecord.Header {
        var header = DashJSRecord.Header()
        header.seed = try reader.number("seed")
        if let settings = reader["settings"], !settings.isNull { try header.settings.update(from: settings, file: reader.file) }
        header.isDynamic = try reader.flag("isDynamic") ?? false
        header.fragmentDurationSeconds = try reader.number("fragmentDuration") ?? .nan
        if let type = try reader.text("mediaType"), type != "video" { throw reader.error("mediaType \(type): the Swift replayer plays video") }
        guard let list = reader["representations"] else { return header }
        for (index, element) in try list.elements(file: reader.file, what: "representations").enumerated() {
            let inner = Reader(members: try element.members(file: reader.file, what: "a representation"), file: reader.file, line: reader.line)
            header.representations.append(DashJSRepresentation(
                id: try inner.identifier("id") ?? String(index), bandwidthBps: try inner.number("bandwidth") ?? .nan,
                width: try inner.number("width"), height: try inner.number("height"), frameRate: try inner.number("frameRate"),
                qualityRanking: try inner.number("qualityRanking"),
                fragmentDurationSeconds: try inner.number("fragmentDuration") ?? header.fragmentDurationSeconds))
        }
        return header
    }

    private static func traces(_ reader: Reader) throws(InputError) -> [DashJSHTTPRequest.Trace] {
        guard let list = reader["traces"], !list.isNull else { return [] }
        var traces: [DashJSHTTPRequest.Trace] = []
        for element in try list.elements(file: reader.file, what: "traces") {
            let inner = Reader(members: try element.members(file: reader.file, what: "a trace"), file: reader.file, line: reader.line)
            traces.append(DashJSHTTPRequest.Trace(durationMs: try inner.number("d") ?? .nan, bytes: try inner.number("b") ?? .nan))
        }
        return traces
    }

    private static func event(_ reader: Reader) throws(InputError) -> DashJSRecord.Event {
        let at = try reader.number("atMs")
        switch try reader.text("e") ?? "" {
        case "httpRequest":
            var timing: DashJSHTTPRequest.ResourceTiming?
            if let value = reader["resourceTiming"], !value.isNull {
                let inner = Reader(members: try value.members(file: reader.file, what: "resourceTiming"), file: reader.file, line: reader.line)
                timing = DashJSHTTPRequest.ResourceTiming(
                    transferSize: try inner.number("transferSize") ?? .nan, decodedBodySize: try inner.number("decodedBodySize") ?? .nan,
                    responseStart: try inner.number("responseStart") ?? .nan, responseEnd: try inner.number("responseEnd") ?? .nan)
            }
            let startMs = try reader.number("startMs") ?? .nan
            let type = try reader.text("type") ?? "MediaSegment"
            // MPD and initialisation requests take other paths in dash.js's throughput model and rules.
            guard type == "MediaSegment" else { throw reader.error("httpRequest type \(type) is not modelled (MediaSegment only)") }
            let request = DashJSHTTPRequest(
                startMs: startMs, firstByteMs: try reader.number("firstByteMs") ?? startMs, endMs: try reader.number("endMs") ?? .nan,
                traces: try traces(reader), resourceTiming: timing, isFetchLoader: try reader.text("fileLoaderType") == "fetch_loader",
                isMediaSegment: type == "MediaSegment", url: try reader.text("url") ?? "")
            if let status = try reader.number("status"), status == 0 { throw reader.error("httpRequest status 0 is not modelled") }
            return .httpRequest(request, representationId: try reader.identifier("representationId"), atMs: at)
        case "fragmentLoaded":
            return .fragmentLoaded(start: try reader.number("start") ?? .nan, durationSeconds: try reader.number("duration"),
                                   representationId: try reader.identifier("representationId"), atMs: at)
        case "bytesAppended": return .bytesAppended(startTime: try reader.number("startTime") ?? .nan, atMs: at)
        case "bufferLevel": return .bufferLevel(seconds: try reader.number("level") ?? .nan, atMs: at)
        case "bufferState":
            guard let state = try reader.text("state") else { throw reader.error("bufferState event without state") }
            return .bufferState(state, atMs: at)
        case "seeking": return .seeking(atMs: at)
        case "seeked": return .seeked(atMs: at)
        case "qualityChangeRendered":
            guard let id = try reader.identifier("representationId") else { throw reader.error("qualityChangeRendered without representationId") }
            return .qualityChangeRendered(representationId: id, atMs: at)
        case "fragmentLoadingAbandoned": return .fragmentLoadingAbandoned(atMs: at)
        case "playbackQuality":
            return .playbackQuality(dropped: try reader.number("droppedVideoFrames") ?? 0, total: try reader.number("totalVideoFrames") ?? 0, atMs: at)
        case "clock": return .clock(atMs: at)
        case let name: throw reader.error("event \"\(name)\" is not modelled by the Swift replayer")
        }
    }

    /// Member access by name with the record's line for errors.
    private struct Reader {
        let members: Members
        let file: String
        let line: Int

        subscript(key: String) -> LocatedJSON? { members.last { $0.key == key }?.value }

        func error(_ message: String) -> InputError { InputError(file: file, line: line, message) }

        func number(_ key: String) throws(InputError) -> Double? {
            guard let value = self[key], !value.isNull else { return nil }
            return try value.number(file: file, what: key)
        }

        func text(_ key: String) throws(InputError) -> String? {
            guard let value = self[key], !value.isNull else { return nil }
            guard case .string(let text) = value.value else { throw error("\(key) must be a string") }
            return text
        }

        /// Ids are strings in dash.js; a number is taken as its JS text, as `String(id)` does.
        func identifier(_ key: String) throws(InputError) -> String? {
            guard let value = self[key], !value.isNull else { return nil }
            if case .number(let number) = value.value { return DashJSNumberText.javaScript(number) }
            return try text(key)
        }

        func flag(_ key: String) throws(InputError) -> Bool? {
            guard let value = self[key], !value.isNull else { return nil }
            guard case .bool(let flag) = value.value else { throw error("\(key) must be a boolean") }
            return flag
        }
    }
}

extension LocatedJSON {
    var isNull: Bool { if case .null = value { true } else { false } }
}

extension DashJSOutputJSON {
    /// The value a parser reads from this value's text (``text``), on `line`.
    func asRead(line: Int) -> LocatedJSON {
        let value: LocatedJSON.Value = switch self {
        case .object(let members): .object(members.map { (key: $0.0, value: $0.1.asRead(line: line)) })
        case .array(let elements): .array(elements.map { $0.asRead(line: line) })
        case .number(let number): Self.read(number).map { .number($0) } ?? .null
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        }
        return LocatedJSON(value: value, line: line)
    }

    /// The number a parser reads from a number's text: nil for `null` (NaN and the infinities), `0` for `-0`.
    static func read(_ number: Double) -> Double? { number.isFinite ? (number == 0 ? 0 : number) : nil }
}
