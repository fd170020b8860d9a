import Foundation

// dash.js 5.1.1's AbandonRequestsRule (streaming/rules/abr/AbandonRequestsRule.js:54-131), run on LOADING_PROGRESS.
// Spec section B.6.

/// The loading request as FragmentLoader reports it at a progress event.
public struct DashJSLoadingRequest: Sendable, Equatable {
    public var index: Double
    /// `firstByteDate` in integral ms, nil before the first byte.
    public var firstByteMs: Double?
    public var traces: DashJSTraceLog
    public var bytesLoaded: Double
    public var bytesTotal: Double
    public var durationSeconds: Double
    public var representation: DashJSRepresentation

    public init(index: Double, firstByteMs: Double?, traces: DashJSTraceLog, bytesLoaded: Double, bytesTotal: Double,
                durationSeconds: Double, representation: DashJSRepresentation) {
        self.index = index
        self.firstByteMs = firstByteMs.map { $0.rounded(.towardZero) }
        self.traces = traces
        self.bytesLoaded = bytesLoaded
        self.bytesTotal = bytesTotal
        self.durationSeconds = durationSeconds
        self.representation = representation
    }
}

public struct DashJSAbandonRequestsRule: Sendable {
    /// Segment indices already abandoned: each is abandoned at most once.
    private var abandoned: Set<Double> = []

    public init() {}

    /// The rule reads only these of the rules' context (DashJSRulesContext), which it is spared building at every
    /// progress event.
    public mutating func shouldAbandon(_ request: DashJSLoadingRequest, settings: DashJSSettings, ladder: DashJSLadder,
                                       current: DashJSRepresentation, bufferLevelSeconds: Double, bufferTimeDefaultSeconds: Double,
                                       nowMs: Double) -> DashJSSwitchRequest {
        guard let optimal = candidate(index: request.index, firstByteMs: request.firstByteMs, traces: request.traces,
                                      bytesLoaded: request.bytesLoaded, bytesTotal: request.bytesTotal, durationSeconds: request.durationSeconds,
                                      settings: settings, ladder: ladder, current: current, bufferLevelSeconds: bufferLevelSeconds,
                                      bufferTimeDefaultSeconds: bufferTimeDefaultSeconds, nowMs: nowMs) else { return .noChange }
        let remainingBytes = request.bytesTotal - request.bytesLoaded
        guard remainingBytes > request.bytesTotal * optimal.bitrateKbps / request.representation.bitrateKbps else { return .noChange }
        abandoned.insert(request.index)
        return DashJSSwitchRequest(optimal, priority: settings.abandonRequestsRule.priority)
    }

    /// The rule but its last test: the representation it would propose for a request of this progress before the
    /// bytes left are weighed against the loading representation's; nil where it proposes nothing. It has no effects,
    /// so a progress check asks it first and needs no loading request where it answers nil. `firstByteMs` is
    /// truncated to integral ms, as DashJSLoadingRequest keeps it. Inlined: a call would copy the settings.
    @inline(__always)
    public func candidate(index: Double, firstByteMs: Double?, traces: DashJSTraceLog, bytesLoaded: Double, bytesTotal: Double,
                          durationSeconds: Double, settings: DashJSSettings, ladder: DashJSLadder, current: DashJSRepresentation,
                          bufferLevelSeconds: Double, bufferTimeDefaultSeconds: Double, nowMs: Double) -> DashJSRepresentation? {
        guard !index.isNaN, let firstByteMs = firstByteMs?.rounded(.towardZero) else { return nil }
        if bufferLevelSeconds > bufferTimeDefaultSeconds { return nil }
        // No test has effects, so their order is free: the lowest representation's test comes before the estimate,
        // which it spares many checks, and the set's hashing last, where few checks get to.
        guard traces.count >= settings.abandonMinThroughputSamplesThreshold, let first = traces.first,
              nowMs - firstByteMs > settings.abandonMinSegmentDownloadTimeThresholdMs, bytesLoaded < bytesTotal,
              current.id != ladder[0].id else { return nil }
        // The first trace holds the request's latency and is left out.
        let bytes = traces.bytes - first.bytes
        let timeMs = jsMax(traces.durationMs - first.durationMs, 1)
        let throughputKbps = jsRound(8 * bytes / timeMs)
        // Upstream rounds the estimate to 2 decimals through toFixed's text before comparing.
        let estimateSeconds = Self.toFixed2(bytesTotal * 8 / throughputKbps / 1000)
        if estimateSeconds < durationSeconds * settings.abandonDurationMultiplier || abandoned.contains(index) { return nil }
        return ladder.optimal(forKbps: throughputKbps)
    }

    /// `Number(x).toFixed(2)` read back as a number (non-finite values pass through). `value * 100` is within an ulp
    /// of the exact hundredfold, so away from a half it rounds to the same integer, whose text reads back as its
    /// division by 100; only near a half does it go through the text.
    static func toFixed2(_ value: Double) -> Double {
        let product = value * 100
        guard abs(product) < 0x1p50, abs(product - product.rounded(.down) - 0.5) > 8 * product.ulp else {
            return toFixed2ThroughText(value)
        }
        return product.rounded() / 100
    }

    /// ``toFixed2(_:)`` through the text, as `toFixed` prints it.
    static func toFixed2ThroughText(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return Double(String(format: "%.2f", value)) ?? .nan
    }
}
