import Foundation

// dash.js 5.1.1's BolaRule: BOLA-O with a placeholder buffer (streaming/rules/abr/BolaRule.js:50-628).
// BOLA: K. Spiteri, R. Urgaonkar, R. K. Sitaraman, "BOLA: Near-optimal bitrate adaptation for online videos",
// IEEE INFOCOM 2016, doi:10.1109/INFOCOM.2016.7524428. Spec section B.2.

public struct DashJSBolaRule: Sendable {
    static let minimumBufferSeconds = 10.0
    static let minimumBufferPerLevelSeconds = 2.0
    static let placeholderDecay = 0.99

    public enum Phase: String, Sendable { case oneBitrate = "ONE_BITRATE", startup = "STARTUP", steady = "STEADY" }

    struct State: Sendable {
        var phase: Phase
        var ladder: [DashJSRepresentation] = []
        var utilities: [Double] = []
        var bufferTimeDefaultSeconds = 0.0
        var vp = 0.0
        var gp = 0.0
        var currentRepresentation: DashJSRepresentation?
        var placeholderSeconds = 0.0
        var mostAdvancedSegmentStart = Double.nan
        var lastSegmentWasReplacement = false
        var lastSegmentStart = Double.nan
        var lastSegmentDurationSeconds = Double.nan
        var lastSegmentRequestTimeMs = Double.nan
        var lastSegmentFinishTimeMs = Double.nan
        var lastCallTimeMs = Double.nan

        mutating func clearOnSeek() {
            placeholderSeconds = 0
            mostAdvancedSegmentStart = .nan
            lastSegmentWasReplacement = false
            lastSegmentStart = .nan
            lastSegmentDurationSeconds = .nan
            lastSegmentRequestTimeMs = .nan
            lastSegmentFinishTimeMs = .nan
        }

        func maxBuffer(_ representation: DashJSRepresentation) -> Double {
            vp * (utilities[representation.absoluteIndex] + gp)
        }

        /// The effective buffer where BOLA starts preferring `representation` over every lower-utility level.
        func minBuffer(_ representation: DashJSRepresentation) -> Double {
            let q = representation.absoluteIndex
            let qBitrate = representation.bandwidthBps
            let qUtility = utilities[q]
            var minimum = 0.0
            var i = q - 1
            while i >= 0 {
                if utilities[i] < utilities[q] {
                    let iBitrate = ladder[i].bandwidthBps
                    let level = vp * (gp + (qBitrate * utilities[i] - iBitrate * qUtility) / (qBitrate - iBitrate))
                    minimum = jsMax(minimum, level)
                }
                i -= 1
            }
            return minimum
        }

        /// argmax of `(Vp·(u_i − 1 + gp) − B)/b_i`, ties to the higher index.
        func representation(forBufferSeconds buffer: Double) -> DashJSRepresentation {
            var quality = -1
            var score = Double.nan
            for i in ladder.indices {
                let s = (vp * (utilities[i] - 1 + gp) - buffer) / ladder[i].bandwidthBps
                if score.isNaN || s >= score {
                    score = s
                    quality = i
                }
            }
            return ladder[quality]
        }
    }

    /// `_calculateBolaParameters`; nil when the highest utility is the first level's.
    static func parameters(bufferTimeDefaultSeconds: Double, count: Int, utilities: [Double]) -> (gp: Double, vp: Double)? {
        var highest = 0
        for (index, utility) in utilities.enumerated() where utility > utilities[highest] { highest = index }
        if highest == 0 { return nil }
        let bufferTime = jsMax(bufferTimeDefaultSeconds, minimumBufferSeconds + minimumBufferPerLevelSeconds * Double(count))
        let gp = (utilities[highest] - 1) / (bufferTime / minimumBufferSeconds - 1)
        return (gp, minimumBufferSeconds / gp)
    }

    var state: State?

    public init() {}

    public var phase: Phase? { state?.phase }
    /// The placeholder buffer (s) BOLA-O adds to the buffer level; nil before BOLA's first call.
    public var placeholderSeconds: Double? { state?.placeholderSeconds }

    // MARK: events

    /// MEDIA_FRAGMENT_LOADED.
    public mutating func fragmentLoaded(start: Double, durationSeconds: Double, representation: DashJSRepresentation, bufferLevelSeconds: Double) {
        guard var s = state, s.phase != .oneBitrate else { return }
        if s.mostAdvancedSegmentStart.isNaN || start > s.mostAdvancedSegmentStart {
            s.mostAdvancedSegmentStart = start
            s.lastSegmentWasReplacement = false
        } else {
            s.lastSegmentWasReplacement = true
        }
        s.lastSegmentStart = start
        s.lastSegmentDurationSeconds = durationSeconds
        s.currentRepresentation = representation
        Self.checkNewSegment(&s, bufferLevelSeconds: bufferLevelSeconds)
        state = s
    }

    /// METRIC_ADDED for a media segment's HttpList entry with traces.
    public mutating func httpRequestAdded(_ request: DashJSHTTPRequest, bufferLevelSeconds: Double) {
        guard request.isMediaSegment, !request.traces.isEmpty, var s = state, s.phase != .oneBitrate else { return }
        s.lastSegmentRequestTimeMs = request.requestMs
        s.lastSegmentFinishTimeMs = request.finishMs
        Self.checkNewSegment(&s, bufferLevelSeconds: bufferLevelSeconds)
        state = s
    }

    /// `_checkNewSegment`: once both the fragment and its request arrived, decay and cap the placeholder.
    private static func checkNewSegment(_ s: inout State, bufferLevelSeconds: Double) {
        guard !s.lastSegmentStart.isNaN, !s.lastSegmentRequestTimeMs.isNaN, !s.placeholderSeconds.isNaN else { return }
        s.placeholderSeconds *= placeholderDecay
        if !s.lastSegmentFinishTimeMs.isNaN, let current = s.currentRepresentation {
            let bufferAtRequest = bufferLevelSeconds + 0.001 * (s.lastSegmentFinishTimeMs - s.lastSegmentRequestTimeMs)
            let maxPlaceholder = jsMax(0, s.maxBuffer(current) - bufferAtRequest)
            s.placeholderSeconds = jsMin(maxPlaceholder, s.placeholderSeconds)
        }
        if s.lastSegmentWasReplacement && !s.lastSegmentDurationSeconds.isNaN {
            s.placeholderSeconds += s.lastSegmentDurationSeconds
        }
        s.lastSegmentStart = .nan
        s.lastSegmentRequestTimeMs = .nan
    }

    /// QUALITY_CHANGE_REQUESTED.
    public mutating func qualityChangeRequested(_ representation: DashJSRepresentation) {
        guard state != nil, state!.phase != .oneBitrate else { return }
        state!.currentRepresentation = representation
    }

    /// BUFFER_EMPTY for video: the placeholder goes in the steady state.
    public mutating func bufferEmpty() {
        guard state?.phase == .steady else { return }
        state!.placeholderSeconds = 0
    }

    /// PLAYBACK_SEEKING: back to start-up (lastCallTimeMs survives).
    public mutating func seeking() {
        guard state != nil, state!.phase != .oneBitrate else { return }
        state!.phase = .startup
        state!.clearOnSeek()
    }

    /// FRAGMENT_LOADING_ABANDONED: deflate the placeholder to where BOLA just prefers the current level.
    public mutating func fragmentLoadingAbandoned(bufferLevelSeconds: Double) {
        guard var s = state, s.phase != .oneBitrate, let current = s.currentRepresentation else { return }
        let want = current.absoluteIndex > 0 ? s.minBuffer(current) : Self.minimumBufferSeconds
        s.placeholderSeconds = jsMin(s.placeholderSeconds, jsMax(0, want - bufferLevelSeconds))
        state = s
    }

    // MARK: decision

    /// The rule's request and the load delay it sets (always 0 first, then the BOLA delay in ms in the steady state).
    public mutating func switchRequest(_ context: DashJSRulesContext) -> (request: DashJSSwitchRequest, loadDelayMs: Double) {
        var s = state ?? Self.initialState(context)
        if state != nil, s.phase != .oneBitrate { Self.checkBufferTimeDefault(&s, context) }
        var delayMs = 0.0
        var chosen: DashJSRepresentation?
        let safeKbps = context.safeAverageThroughputKbps
        switch s.phase {
        case .oneBitrate:
            break
        case .startup:
            if !safeKbps.isNaN {
                let representation = context.ladder.optimal(forKbps: safeKbps)
                chosen = representation
                s.placeholderSeconds = jsMax(0, s.minBuffer(representation) - context.bufferLevelSeconds)
                s.currentRepresentation = representation
                if !s.lastSegmentDurationSeconds.isNaN && context.bufferLevelSeconds >= s.lastSegmentDurationSeconds { s.phase = .steady }
            }
        case .steady:
            // _updatePlaceholderBuffer: time since the last download (or call) that no bandwidth explains.
            if !s.lastSegmentFinishTimeMs.isNaN {
                s.placeholderSeconds += jsMax(0, 0.001 * (context.nowMs - s.lastSegmentFinishTimeMs))
            } else if !s.lastCallTimeMs.isNaN {
                s.placeholderSeconds += jsMax(0, 0.001 * (context.nowMs - s.lastCallTimeMs))
            }
            s.lastCallTimeMs = context.nowMs
            s.lastSegmentStart = .nan
            s.lastSegmentRequestTimeMs = .nan
            s.lastSegmentFinishTimeMs = .nan
            Self.checkBufferTimeDefault(&s, context)
            let buffer = context.bufferLevelSeconds
            var representation = s.representation(forBufferSeconds: buffer + s.placeholderSeconds)
            // BOLA-O: never climb above both the current level and what the throughput sustains.
            let forThroughput = context.ladder.optimal(forKbps: safeKbps)
            let currentIndex = s.currentRepresentation!.absoluteIndex
            if representation.absoluteIndex > currentIndex && representation.absoluteIndex > forThroughput.absoluteIndex {
                representation = forThroughput.absoluteIndex > currentIndex ? forThroughput : s.currentRepresentation!
            }
            var delaySeconds = jsMax(0, buffer + s.placeholderSeconds - s.maxBuffer(representation))
            if delaySeconds <= s.placeholderSeconds {
                s.placeholderSeconds -= delaySeconds
            } else {
                delaySeconds -= s.placeholderSeconds
                s.placeholderSeconds = 0
                if representation.id != context.ladder.top.id { delayMs = 1000 * delaySeconds }
            }
            chosen = representation
            s.currentRepresentation = representation
        }
        state = s
        return (DashJSSwitchRequest(chosen, priority: context.settings.bolaRule.priority), delayMs)
    }

    private static func initialState(_ context: DashJSRulesContext) -> State {
        let ladder = context.ladder.representations
        let logs = ladder.map { JSMath.log($0.bandwidthBps) }
        let utilities = logs.map { $0 - logs[0] + 1 }
        guard let params = parameters(bufferTimeDefaultSeconds: context.bufferTimeDefaultSeconds, count: ladder.count, utilities: utilities) else {
            return State(phase: .oneBitrate)
        }
        return State(phase: .startup, ladder: ladder, utilities: utilities, bufferTimeDefaultSeconds: context.bufferTimeDefaultSeconds,
                     vp: params.vp, gp: params.gp)
    }

    /// `_checkBolaStateBufferTimeDefault`: a new buffer target rescales Vp, gp and the placeholder around 10 s.
    private static func checkBufferTimeDefault(_ s: inout State, _ context: DashJSRulesContext) {
        let target = context.bufferTimeDefaultSeconds
        guard s.bufferTimeDefaultSeconds != target,
              let params = parameters(bufferTimeDefaultSeconds: target, count: s.ladder.count, utilities: s.utilities),
              params.vp != s.vp || params.gp != s.gp else { return }
        let buffer = context.bufferLevelSeconds
        var effective = buffer + s.placeholderSeconds
        effective -= minimumBufferSeconds
        effective *= params.vp / s.vp
        effective += minimumBufferSeconds
        s.bufferTimeDefaultSeconds = target
        s.vp = params.vp
        s.gp = params.gp
        s.placeholderSeconds = jsMax(0, effective - buffer)
    }
}
