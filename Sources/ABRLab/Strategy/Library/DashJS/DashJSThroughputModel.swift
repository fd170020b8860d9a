// dash.js 5.1.1's throughput model: ThroughputModel.addEntry (streaming/models/ThroughputModel.js:81-132, 161-303) and
// the averages ThroughputController gives the rules (streaming/controllers/ThroughputController.js:112-446).
// Spec: ../shared/specs/dashjs.md section C.

/// One finished HTTP request as dash.js's HttpList metric holds it (streaming/net/HTTPLoader.js:239-297).
public struct DashJSHTTPRequest: Sendable, Equatable {
    public struct Trace: Sendable, Equatable {
        public var durationMs: Double
        public var bytes: Double
    }
    public struct ResourceTiming: Sendable, Equatable {
        public var transferSize: Double
        public var decodedBodySize: Double
        public var responseStart: Double
        public var responseEnd: Double
    }
    /// `trequest`, `tresponse`, `_tfinish`: JS `Date`s, so integral ms (the fraction truncated).
    public var requestMs: Double
    public var firstByteMs: Double
    public var finishMs: Double
    public var traces: [Trace]
    public var resourceTiming: ResourceTiming?
    public var isFetchLoader: Bool
    public var isMediaSegment: Bool
    public var url: String

    public init(startMs: Double, firstByteMs: Double, endMs: Double, traces: [Trace], resourceTiming: ResourceTiming?,
                isFetchLoader: Bool, isMediaSegment: Bool = true, url: String) {
        requestMs = startMs.rounded(.towardZero)
        self.firstByteMs = firstByteMs.rounded(.towardZero)
        finishMs = endMs.rounded(.towardZero)
        self.traces = traces
        self.resourceTiming = resourceTiming
        self.isFetchLoader = isFetchLoader
        self.isMediaSegment = isMediaSegment
        self.url = url
    }
}

/// JS `Math.round`: halves go up, exactly (no `x + 0.5` rounding error).
@inline(__always) func jsRound(_ value: Double) -> Double {
    let floor = value.rounded(.down)
    return value - floor >= 0.5 ? floor + 1 : floor
}

public struct DashJSThroughputModel: Sendable {
    public struct Sample: Sendable, Equatable {
        public var throughputKbps: Double
        public var downloadedBytes: Double
        public var downloadTimeMs: Double
    }
    struct EWMA: Sendable {
        var fast = 0.0
        var slow = 0.0
        var totalWeight = 0.0

        mutating func update(_ value: Double, weight: Double, fastHalfLife: Double, slowHalfLife: Double) {
            let fastAlpha = halfPower(weight / fastHalfLife)
            fast = (1 - fastAlpha) * value + fastAlpha * fast
            let slowAlpha = halfPower(weight / slowHalfLife)
            slow = (1 - slowAlpha) * value + slowAlpha * slow
            totalWeight += weight
        }

        /// getEwma: the start-up-corrected fast and slow estimates, the lower (throughput) or the higher (latency).
        func average(fastHalfLife: Double, slowHalfLife: Double, useMin: Bool) -> Double {
            if totalWeight <= 0 { return .nan }
            let fastEstimate = fast / (1 - halfPower(totalWeight / fastHalfLife))
            let slowEstimate = slow / (1 - halfPower(totalWeight / slowHalfLife))
            return useMin ? jsMin(fastEstimate, slowEstimate) : jsMax(fastEstimate, slowEstimate)
        }
    }

    public private(set) var samples: [Sample] = []
    private(set) var latenciesMs: [Double] = []
    private var throughputEWMA: EWMA?
    private var latencyEWMA = EWMA()

    public init() {}

    /// addEntry: one sample per finished request with traces, unless its value is not finite or it looks cached.
    public mutating func add(_ request: DashJSHTTPRequest, settings: DashJSSettings) {
        if request.traces.isEmpty { return }
        if throughputEWMA == nil { throughputEWMA = EWMA() }
        let latencyMs = (request.firstByteMs - request.requestMs) == 0 ? 1 : request.firstByteMs - request.requestMs
        var bytes = Double.nan
        var timeMs = Double.nan
        var kbps = Double.nan
        if request.isFetchLoader {
            bytes = request.traces.reduce(0) { $0 + $1.bytes }
            timeMs = request.traces.reduce(0) { $0 + $1.durationMs }
            kbps = jsRound(8 * bytes / timeMs)
        } else {
            var valid = true
            if settings.useResourceTimingApi, let timing = request.resourceTiming {
                bytes = timing.transferSize
                timeMs = timing.responseEnd - timing.responseStart
            } else if request.traces.count <= 1 {
                valid = false
            } else {
                bytes = request.traces.reduce(0) { $0 + $1.bytes } - request.traces[0].bytes
                timeMs = jsMax(request.traces.reduce(0) { $0 + $1.durationMs } - request.traces[0].durationMs, 1)
            }
            if valid {
                let referenceMs = settings.useDeadTimeLatency ? timeMs : timeMs + latencyMs
                kbps = jsRound(8 * bytes / referenceMs)
            }
        }
        if !kbps.isFinite { return }
        if isCached(request, settings: settings) { return }
        samples.append(Sample(throughputKbps: kbps, downloadedBytes: bytes, downloadTimeMs: timeMs))
        latenciesMs.append(latencyMs)
        if samples.count > settings.maxMeasurementsToKeep { samples.removeFirst() }
        if latenciesMs.count > settings.maxMeasurementsToKeep { latenciesMs.removeFirst() }
        throughputEWMA!.update(kbps, weight: settings.weightDownloadTimeMultiplicationFactor * timeMs,
                               fastHalfLife: settings.throughputFastHalfLifeSeconds, slowHalfLife: settings.throughputSlowHalfLifeSeconds)
        latencyEWMA.update(latencyMs, weight: 1, fastHalfLife: settings.latencyFastHalfLifeCount, slowHalfLife: settings.latencySlowHalfLifeCount)
    }

    /// _isCachedResponse for video: Resource Timing's zero transfer (whatever the loader), else under 10 ms from request to finish.
    private func isCached(_ request: DashJSHTTPRequest, settings: DashJSSettings) -> Bool {
        if settings.useResourceTimingApi, let timing = request.resourceTiming {
            return timing.transferSize == 0 && timing.decodedBodySize > 0
        }
        return request.finishMs - request.requestMs < settings.cacheLoadThresholdVideoMs
    }

    /// getAverageThroughput: `Math.round` of the mode's average, NaN without samples.
    public func averageThroughputKbps(settings: DashJSSettings, isDynamic: Bool, mode: DashJSAveragingMode? = nil, sampleCount: Int? = nil) -> Double {
        let mode = mode ?? settings.averagingMode
        if mode == .ewma {
            guard let throughputEWMA else { return .nan }
            return jsRound(throughputEWMA.average(fastHalfLife: settings.throughputFastHalfLifeSeconds,
                                                  slowHalfLife: settings.throughputSlowHalfLifeSeconds, useMin: true))
        }
        if samples.isEmpty { return .nan }
        let n = adjustedSampleSize(sampleCount ?? (isDynamic ? settings.sampleSizeLive : settings.sampleSizeVod), settings: settings)
        return jsRound(Self.average(samples.suffix(n).map { ($0.throughputKbps, $0.downloadedBytes) }, mode: mode))
    }

    /// getSafeAverageThroughput: the average × bandwidthSafetyFactor, not rounded again.
    public func safeAverageThroughputKbps(settings: DashJSSettings, isDynamic: Bool) -> Double {
        averageThroughputKbps(settings: settings, isDynamic: isDynamic) * settings.bandwidthSafetyFactor
    }

    /// getAverageLatency: EWMA's higher estimate, or the mode's average over the last 4 (no widening for latency).
    public func averageLatencyMs(settings: DashJSSettings) -> Double {
        if settings.averagingMode == .ewma {
            guard throughputEWMA != nil else { return .nan }
            return jsRound(latencyEWMA.average(fastHalfLife: settings.latencyFastHalfLifeCount,
                                               slowHalfLife: settings.latencySlowHalfLifeCount, useMin: false))
        }
        if latenciesMs.isEmpty { return .nan }
        let n = min(settings.averageLatencySampleAmount, latenciesMs.count)
        // Latency entries carry no byte count: the byte-weighted modes read `undefined` and give NaN.
        return jsRound(Self.average(latenciesMs.suffix(n).map { ($0, .nan) }, mode: settings.averagingMode))
    }

    /// _getAdjustedSampleSize: widens the window while consecutive samples differ by ≥ 30 % (n grows inside the loop).
    func adjustedSampleSize(_ requested: Int, settings: DashJSSettings) -> Int {
        let count = samples.count
        if requested >= count { return count }
        var n = requested
        guard settings.enableSampleSizeAdjustment else { return n }
        var i = 1
        while i < n {
            let ratio = samples[count - i].throughputKbps / samples[count - i - 1].throughputKbps
            if ratio >= settings.increaseScale || ratio <= settings.decreaseScale {
                n += 1
                if n == count { break }
            }
            i += 1
        }
        return n
    }

    /// The weights and the weighted terms of the weighted averages, summed oldest first as
    /// dash.js sums them (each entry's weight, then its term times that weight), so the four
    /// weighted modes round alike.
    private static func weightedSums(
        _ entries: [(value: Double, bytes: Double)], by weight: (Int, (value: Double, bytes: Double)) -> Double, of term: (Double) -> Double
    ) -> (weights: Double, terms: Double) {
        var weights = 0.0
        var terms = 0.0
        for (index, entry) in entries.enumerated() {
            let w = weight(index, entry)
            weights += w
            terms += term(entry.value) * w
        }
        return (weights, terms)
    }

    /// The non-EWMA averages over `(value, bytes)`, oldest first (ThroughputController.js:209-403).
    static func average(_ entries: [(value: Double, bytes: Double)], mode: DashJSAveragingMode) -> Double {
        if entries.isEmpty { return .nan }
        switch mode {
        case .arithmeticMean:
            return entries.reduce(0) { $0 + $1.value } / Double(entries.count)
        case .byteSizeWeightedArithmeticMean:
            let sums = weightedSums(entries, by: { $1.bytes.squareRoot() }, of: { $0 })
            return sums.terms / sums.weights
        case .dateWeightedArithmeticMean:
            let sums = weightedSums(entries, by: { index, _ in Double(index + 1) }, of: { $0 })
            return sums.terms / sums.weights
        case .harmonicMean:
            return Double(entries.count) / entries.reduce(0) { $0 + 1 / $1.value }
        case .byteSizeWeightedHarmonicMean:
            let sums = weightedSums(entries, by: { $1.bytes.squareRoot() }, of: { 1 / $0 })
            return sums.weights / sums.terms
        case .dateWeightedHarmonicMean:
            let sums = weightedSums(entries, by: { index, _ in Double(index + 1) }, of: { 1 / $0 })
            return sums.weights / sums.terms
        case .zlema:
            let alpha = 2 / Double(entries.count + 1)
            var ema = entries[entries.count - 1].value
            var zlema = ema
            for entry in entries {
                ema = alpha * entry.value + (1 - alpha) * ema
                zlema = alpha * ema + (1 - alpha) * zlema
            }
            return zlema
        case .ewma:
            return .nan
        }
    }
}

/// JS `Math.min`/`Math.max`: NaN in, NaN out (Swift's `min` would drop it).
@inline(__always) func jsMin(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : Swift.min(a, b) }
@inline(__always) func jsMax(_ a: Double, _ b: Double) -> Double { a.isNaN || b.isNaN ? .nan : Swift.max(a, b) }
