import Foundation

// dash.js 5.1.1's L2ARule, Learn2Adapt for low-latency live (streaming/rules/abr/L2ARule.js:44-470).
// L2A-LL as upstream cites it (L2ARule.js:32): github.com/unifiedstreaming/Learn2Adapt-LowLatency,
// Online_learning_for_bitrate_adaptation_in_low_latency_live_streaming_CR.pdf (the spec names no DOI); the simplex
// projection after arxiv.org/abs/1101.6081 (:250). Spec section B.7.

public struct DashJSL2ARule: Sendable {
    static let horizon = 4.0
    /// `Math.pow(HORIZON, 0.99)`: the cautiousness parameter.
    static let vl = JSMath.pow(horizon, 0.99)
    static let react = 2.0
    static let targetBufferSeconds = 1.5

    public enum Phase: String, Sendable { case startup = "L2A_STATE_STARTUP", steady = "L2A_STATE_STEADY" }

    struct State: Sendable {
        var phase = Phase.startup
        var currentRepresentation: DashJSRepresentation?
        var lastSegmentDurationSeconds = Double.nan
        var lastSegmentUrl = ""
        var w: [Double] = []
        var previousW: [Double] = []
        /// The Lagrangian multiplier that tracks the buffer displacement.
        var q = 0.0
    }

    var state: State?

    public init() {}

    public var phase: Phase? { state?.phase }

    /// PLAYBACK_SEEKING: back to start-up; w, prev_w and Q stay.
    public mutating func seeking() {
        guard state != nil else { return }
        state!.phase = .startup
        state!.lastSegmentDurationSeconds = .nan
        state!.lastSegmentUrl = ""
    }

    /// MEDIA_FRAGMENT_LOADED.
    public mutating func fragmentLoaded(durationSeconds: Double, representation: DashJSRepresentation) {
        guard state != nil else { return }
        state!.lastSegmentDurationSeconds = durationSeconds
        state!.currentRepresentation = representation
    }

    public mutating func switchRequest(_ context: DashJSRulesContext) -> DashJSSwitchRequest {
        var s = state ?? State()
        // Moved out, so that the weights' arrays are not shared and update in place.
        state = nil
        defer { state = s }
        let priority = context.settings.l2ARule.priority
        switch s.phase {
        case .startup:
            let safeKbps = context.safeAverageThroughputKbps
            if safeKbps.isNaN { return DashJSSwitchRequest(nil, priority: priority) }
            let representation = context.ladder.optimal(forKbps: safeKbps)
            s.currentRepresentation = representation
            if !s.lastSegmentDurationSeconds.isNaN && context.bufferLevelSeconds >= Self.targetBufferSeconds {
                s.phase = .steady
                s.q = Self.vl
                let count = context.ladder.count
                if s.previousW.count < count { s.previousW += Array(repeating: 0, count: count - s.previousW.count) }
                for i in 0..<count { s.previousW[i] = context.ladder[i].id == representation.id ? 1 : 0 }
            }
            return DashJSSwitchRequest(representation, priority: priority)
        case .steady:
            // A failed step throws in dash.js; its catch answers an empty request at DEFAULT priority.
            guard let representation = Self.steady(&s, context) else { return DashJSSwitchRequest() }
            s.currentRepresentation = representation
            return DashJSSwitchRequest(representation, priority: priority)
        }
    }

    private static func steady(_ s: inout State, _ context: DashJSRulesContext) -> DashJSRepresentation? {
        var lastKbps = context.throughput.averageThroughputKbps(settings: context.settings, isDynamic: context.isDynamic,
                                                                mode: .arithmeticMean, sampleCount: 1)
        if lastKbps < 1 { lastKbps = 1 }
        guard let request = context.lastHTTPRequest else { return nil }
        if request.url == s.lastSegmentUrl || !request.isMediaSegment { return s.currentRepresentation }
        let v = s.lastSegmentDurationSeconds
        let rate = context.playbackRate
        let alpha = Swift.max(horizon, vl * horizon.squareRoot())
        let count = context.ladder.count
        if s.w.count < count { s.w += Array(repeating: .nan, count: count - s.w.count) }
        if s.previousW.count < count { s.previousW += Array(repeating: .nan, count: count - s.previousW.count) }
        // `sign` is never reset to +1 once a level exceeds the throughput, as upstream.
        var sign = 1.0
        for i in 0..<count {
            // Read in place: `ladder[i]` would copy the representation to read its bitrate.
            let kbps = context.ladder.representations[i].bitrateKbps
            if rate * kbps > lastKbps { sign = -1 }
            s.w[i] = s.previousW[i] + sign * (v / (2 * alpha)) * ((s.q + vl) * (rate * kbps / lastKbps))
        }
        // The ladder's count is the weights' but after a shorter ladder has grown them: a prefix only then.
        s.w = euclideanProjection(s.w.count == count ? s.w : Array(s.w.prefix(count)))
        let bitratesBps = context.ladder.representations.map(\.bandwidthBps)
        // The Q update's dot products with the previous weights (the new ones once updated) and with the step's
        // differences, each summed left to right as upstream's, without an array of the differences.
        var previousSum = 0.0
        var diffSum = 0.0
        for i in 0..<count {
            let diff = s.w[i] - s.previousW[i]
            s.previousW[i] = s.w[i]
            previousSum = previousSum + bitratesBps[i] * s.previousW[i]
            diffSum = diffSum + bitratesBps[i] * diff
        }
        // bit/s against kbit/s in the Q update and the one-step-up test below, as upstream.
        s.q = jsMax(0, s.q - v + v * rate * ((previousSum + diffSum) / lastKbps))
        let mean = dot(s.w, bitratesBps)
        // `temp.indexOf(Math.min(...temp))`: the first minimum; a NaN finds no index and the step fails. The
        // distances are computed where they are read rather than kept.
        var minimum = Double.infinity
        for bitrate in bitratesBps {
            let distance = abs(bitrate - mean)
            if distance.isNaN { return nil }
            minimum = Swift.min(minimum, distance)
        }
        guard let index = bitratesBps.firstIndex(where: { abs($0 - mean) == minimum }),
              let current = s.currentRepresentation else { return nil }
        var selected = context.ladder[index]
        if selected.absoluteIndex > current.absoluteIndex, current.absoluteIndex + 1 < count,
           bitratesBps[current.absoluteIndex + 1] <= lastKbps {
            selected = context.ladder[current.absoluteIndex + 1]
        }
        if selected.bitrateKbps >= lastKbps { s.q = react * jsMax(vl, s.q) }
        s.lastSegmentUrl = request.url
        return selected
    }

    /// Over `a`'s indices, summed left to right as upstream's.
    private static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for i in a.indices { sum = sum + a[i] * b[i] }
        return sum
    }

    /// Projection onto the probability simplex (L2ARule.js:254-282), on a copy sorted descending.
    static func euclideanProjection(_ values: [Double]) -> [Double] {
        let m = values.count
        let sorted = values.sorted(by: >)
        var sum = 0.0
        var tmax = 0.0
        var found = false
        for i in 0..<(m - 1) {
            sum += sorted[i]
            tmax = (sum - 1) / Double(i + 1)
            if tmax >= sorted[i + 1] {
                found = true
                break
            }
        }
        if !found { tmax = (sum + sorted[m - 1] - 1) / Double(m) }
        return values.map { jsMax($0 - tmax, 0) }
    }
}
