// dash.js 5.1.1's AbrController for one media type of one stream: checkPlaybackQuality (streaming/controllers/
// AbrController.js:687-723), the dynamic BOLA/Throughput switch (:115-126, 640-646, 930-960), abandonment on
// LOADING_PROGRESS with its timer (:536-621), and the rule set of ABRRulesCollection (streaming/rules/abr/
// ABRRulesCollection.js:75-113, 233-268) with the metrics the rules read (dash/DashMetrics.js:102-123).
// Spec sections A.2-A.5, E.3.

public struct DashJSAbrController: Sendable {
    /// dash.js's rule class names, in Constants.QUALITY_SWITCH_RULES order.
    public enum RuleName: String, Sendable, CaseIterable {
        case bola = "BolaRule", throughput = "ThroughputRule", insufficientBuffer = "InsufficientBufferRule"
        case switchHistory = "SwitchHistoryRule", droppedFrames = "DroppedFramesRule", l2a = "L2ARule"
        case lolp = "LoLPRule"
    }

    public struct QualityDecision: Sendable {
        public var rules: [(name: RuleName, request: DashJSSwitchRequest)]
        /// nil where the decision failed inside dash.js (LoL+ before any HTTP request) or auto-switch is off.
        public var best: DashJSSwitchRequest?
        public var changed: Bool
        public var chosen: DashJSRepresentation
        /// The load delay a rule set on the scheduler (ms), nil when none did.
        public var loadDelayMs: Double?
    }

    public struct AbandonDecision: Sendable {
        /// nil when the abandon rules did not run (auto-switch off).
        public var rule: DashJSSwitchRequest?
        public var best: DashJSSwitchRequest?
        public var changed: Bool
    }

    public let ladder: DashJSLadder
    public private(set) var settings: DashJSSettings
    public private(set) var throughput = DashJSThroughputModel()
    public var current: DashJSRepresentation
    public var isDynamic: Bool
    public var lowLatencyMode: Bool
    public var liveDelaySeconds = Double.nan
    public var currentLiveLatencySeconds = Double.nan
    public var playbackRate = 1.0
    /// The virtual `Date.now()`; it never goes back.
    public private(set) var nowMs: Double

    /// The last BufferLevel metric in ms, as StreamController stores it.
    public private(set) var bufferLevelMetricMs: Double?
    /// `getCurrentBufferLevel`: the metric rounded to ms, 0 before the first; rounded once per metric, as the
    /// rounding goes through the number's text and every rule and progress check reads it.
    public private(set) var bufferLevelSeconds = 0.0
    public private(set) var bufferState: String?
    public private(set) var usesBola: Bool
    public private(set) var allowsLoad = true
    private var abandonmentTimerDueMs: Double?

    private let activeRules: [RuleName]
    private var bola = DashJSBolaRule()
    private var insufficientBuffer: DashJSInsufficientBufferRule
    private var switchHistory = DashJSSwitchHistoryRule()
    private var droppedFrames = DashJSDroppedFramesRule()
    private var abandonRequests = DashJSAbandonRequestsRule()
    private var l2a = DashJSL2ARule()
    private var lolp: DashJSLoLPRule
    /// The newest HttpList entry (every request carries a response code here).
    private var lastHTTPRequest: DashJSHTTPRequest?
    private var playbackQuality = (dropped: 0.0, total: 0.0)

    /// `seed` seeds `Math.random`, which only LoL+ draws from.
    public init(ladder: DashJSLadder, settings: DashJSSettings, current: DashJSRepresentation, isDynamic: Bool, lowLatencyMode: Bool,
                nowMs: Double, seed: Double = 1) {
        lolp = DashJSLoLPRule(seed: seed)
        self.ladder = ladder
        self.settings = settings
        self.current = current
        self.isDynamic = isDynamic
        self.lowLatencyMode = lowLatencyMode
        self.nowMs = nowMs
        insufficientBuffer = DashJSInsufficientBufferRule(settings: settings)
        let flags: [(RuleName, Bool)] = [(.bola, settings.bolaRule.active), (.throughput, settings.throughputRule.active),
                                         (.insufficientBuffer, settings.insufficientBufferRule.active),
                                         (.switchHistory, settings.switchHistoryRule.active), (.droppedFrames, settings.droppedFramesRule.active),
                                         (.l2a, settings.l2ARule.active), (.lolp, settings.loLPRule.active)]
        let active = flags.filter(\.1).map(\.0)
        // No active rule leaves BOLA and Throughput.
        activeRules = active.isEmpty ? [.bola, .throughput] : active
        usesBola = settings.bolaRule.active && !(settings.bolaRule.active && settings.throughputRule.active)
    }

    public var ruleNames: [RuleName] { activeRules }
    /// BolaRule's state, which its events keep whichever rule runs.
    public var bolaRule: DashJSBolaRule { bola }


    /// `mediaPlayerModel.getBufferTimeDefault()`.
    /// Inlined: a call had the whole controller copied.
    public var bufferTimeDefaultSeconds: Double {
        @inline(__always) get {
            !liveDelaySeconds.isNaN && liveDelaySeconds > 0 ? jsMin(settings.bufferTimeDefaultSeconds, liveDelaySeconds) : settings.bufferTimeDefaultSeconds
        }
    }

    func context() -> DashJSRulesContext {
        DashJSRulesContext(ladder: ladder, current: current, settings: settings, throughput: throughput, bufferLevelSeconds: bufferLevelSeconds,
                           bufferState: bufferState, isDynamic: isDynamic, lowLatencyMode: lowLatencyMode, allowsLoad: allowsLoad,
                           nowMs: nowMs, bufferTimeDefaultSeconds: bufferTimeDefaultSeconds, playbackRate: playbackRate,
                           currentLiveLatencySeconds: currentLiveLatencySeconds, lastHTTPRequest: lastHTTPRequest)
    }

    // MARK: clock and events (E.3)

    /// Advances the virtual clock, firing the abandonment timer when it falls due. Inlined: every progress check
    /// advances it twice.
    @inline(__always)
    public mutating func advanceClock(toMs: Double) {
        guard toMs.isFinite else { return }
        if let due = abandonmentTimerDueMs, due <= toMs {
            nowMs = Swift.max(nowMs, due)
            allowsLoad = true
            abandonmentTimerDueMs = nil
        }
        nowMs = Swift.max(nowMs, toMs)
    }

    /// `dashMetrics.addHttpRequest` → HttpList METRIC_ADDED: the throughput sample, then BOLA's request timing.
    public mutating func httpRequest(_ request: DashJSHTTPRequest) {
        lastHTTPRequest = request
        if request.isMediaSegment { throughput.add(request, settings: settings) }
        bola.httpRequestAdded(request, bufferLevelSeconds: bufferLevelSeconds)
    }

    /// MEDIA_FRAGMENT_LOADED.
    public mutating func fragmentLoaded(start: Double, durationSeconds: Double, representation: DashJSRepresentation) {
        bola.fragmentLoaded(start: start, durationSeconds: durationSeconds, representation: representation, bufferLevelSeconds: bufferLevelSeconds)
        l2a.fragmentLoaded(durationSeconds: durationSeconds, representation: representation)
    }

    /// BYTES_APPENDED_END_FRAGMENT.
    public mutating func bytesAppended(startTime: Double) {
        if !startTime.isNaN { insufficientBuffer.bytesAppended() }
    }

    /// The BufferLevel metric (after BUFFER_LEVEL_UPDATED): BOLA/Throughput switch with hysteresis.
    public mutating func bufferLevel(seconds: Double) {
        let levelMs = seconds * 1000
        bufferLevelMetricMs = levelMs
        bufferLevelSeconds = round10Milli(levelMs / 1000)
        guard settings.bolaRule.active && settings.throughputRule.active else { return }
        let level = 0.001 * levelMs
        let target = bufferTimeDefaultSeconds
        usesBola = level >= (usesBola ? 0.5 * target : target)
    }

    /// The BufferState metric and BUFFER_LEVEL_STATE_CHANGED; a stall is also BUFFER_EMPTY. Returns whether it changed.
    @discardableResult
    public mutating func bufferState(_ state: String) -> Bool {
        if bufferState == state { return false }
        bufferState = state
        if state != "bufferLoaded" { bola.bufferEmpty() }
        return true
    }

    /// PLAYBACK_SEEKING.
    public mutating func seeking() {
        bola.seeking()
        insufficientBuffer.seeking(settings: settings)
        l2a.seeking()
    }

    /// QUALITY_CHANGE_RENDERED for video.
    public mutating func qualityChangeRendered(id: String) {
        droppedFrames.qualityRendered(id: id, droppedVideoFrames: playbackQuality.dropped, totalVideoFrames: playbackQuality.total)
    }

    /// The video element's cumulative `getVideoPlaybackQuality()`.
    public mutating func setPlaybackQuality(droppedVideoFrames: Double, totalVideoFrames: Double) {
        playbackQuality = (droppedVideoFrames, totalVideoFrames)
    }

    /// FRAGMENT_LOADING_ABANDONED.
    public mutating func fragmentLoadingAbandoned() {
        bola.fragmentLoadingAbandoned(bufferLevelSeconds: bufferLevelSeconds)
    }

    // MARK: decisions

    /// checkPlaybackQuality: one of BOLA/Throughput plus the other active rules, their minimum, the switch history push,
    /// and the change (only downwards while abandoning).
    public mutating func checkPlaybackQuality() -> QualityDecision {
        droppedFrames.push(droppedVideoFrames: playbackQuality.dropped, totalVideoFrames: playbackQuality.total)
        guard settings.autoSwitchBitrate else {
            return QualityDecision(rules: [], best: nil, changed: false, chosen: current, loadDelayMs: nil)
        }
        let context = context()
        var loadDelayMs: Double?
        var results: [(name: RuleName, request: DashJSSwitchRequest)] = []
        results.reserveCapacity(activeRules.count)
        for name in activeRules {
            switch name {
            case .bola:
                guard usesBola else { continue }
                let answer = bola.switchRequest(context)
                loadDelayMs = answer.loadDelayMs
                results.append((name, answer.request))
            case .throughput:
                guard !usesBola else { continue }
                let answer = DashJSThroughputRule.switchRequest(context)
                if answer.setsLoadDelayToZero { loadDelayMs = 0 }
                results.append((name, answer.request))
            case .insufficientBuffer: results.append((name, insufficientBuffer.switchRequest(context)))
            case .switchHistory: results.append((name, switchHistory.switchRequest(context)))
            case .droppedFrames: results.append((name, droppedFrames.switchRequest(context)))
            case .l2a:
                loadDelayMs = 0
                results.append((name, l2a.switchRequest(context)))
            case .lolp:
                // A throw inside LoLpRule ends checkPlaybackQuality in its catch: no combination, no history push.
                guard let request = lolp.switchRequest(context) else {
                    return QualityDecision(rules: results, best: nil, changed: false, chosen: current, loadDelayMs: loadDelayMs)
                }
                // LoLpRule resets the load delay only when it reaches its answer.
                if request.representation != nil { loadDelayMs = 0 }
                results.append((name, request))
            }
        }
        let best = DashJSSwitchRequest.minimum(results.lazy.map(\.request))
        guard let proposed = best.representation else {
            return QualityDecision(rules: results, best: best, changed: false, chosen: current, loadDelayMs: loadDelayMs)
        }
        switchHistory.push(current: current, proposed: proposed, settings: settings)
        if proposed.id != current.id && (allowsLoad || proposed.absoluteIndex < current.absoluteIndex) {
            changeQuality(to: proposed)
            return QualityDecision(rules: results, best: best, changed: true, chosen: proposed, loadDelayMs: loadDelayMs)
        }
        return QualityDecision(rules: results, best: best, changed: false, chosen: current, loadDelayMs: loadDelayMs)
    }

    /// The stateless ThroughputRule as it would answer now (nil when the rule set has no ThroughputRule).
    public func probeThroughputRule() -> DashJSSwitchRequest? {
        guard activeRules.contains(.throughput) else { return nil }
        return DashJSThroughputRule.switchRequest(context()).request
    }

    /// LOADING_PROGRESS: AbandonRequestsRule, and on a proposal the abandonment state, history reset, switch and timer.
    public mutating func loadingProgress(_ request: DashJSLoadingRequest) -> AbandonDecision {
        guard settings.autoSwitchBitrate else { return AbandonDecision(rule: nil, best: nil, changed: false) }
        let bufferTimeDefaultSeconds = bufferTimeDefaultSeconds
        let answer = settings.abandonRequestsRule.active
            ? abandonRequests.shouldAbandon(request, settings: settings, ladder: ladder, current: current, bufferLevelSeconds: bufferLevelSeconds,
                                            bufferTimeDefaultSeconds: bufferTimeDefaultSeconds, nowMs: nowMs)
            : nil
        // getMinSwitchRequest of no proposal is no proposal.
        guard let answer, answer.representation != nil else { return AbandonDecision(rule: answer, best: DashJSSwitchRequest(), changed: false) }
        let best = DashJSSwitchRequest.minimum(CollectionOfOne(answer))
        var changed = false
        if let representation = best.representation {
            allowsLoad = false
            switchHistory.reset()
            if representation.id != current.id {
                changeQuality(to: representation)
                changed = true
            }
            abandonmentTimerDueMs = nowMs + settings.abandonLoadTimeoutMs
        }
        return AbandonDecision(rule: answer, best: best, changed: changed)
    }

    /// AbandonRequestsRule's proposal before its last test, where auto-switch and the rule are on (DashJSAbandonRequestsRule.
    /// candidate). Where nil, ``loadingProgress(_:)`` proposes nothing and changes no state. It changes nothing
    /// either, but is `mutating` so that it gets the controller in place: as a plain method, called on a session's
    /// controller, it had the whole controller copied at every progress check.
    @inline(__always)
    public mutating func abandonCandidate(index: Double, firstByteMs: Double?, traces: DashJSTraceLog, bytesLoaded: Double, bytesTotal: Double,
                                 durationSeconds: Double) -> DashJSRepresentation? {
        guard settings.autoSwitchBitrate && settings.abandonRequestsRule.active else { return nil }
        return abandonRequests.candidate(index: index, firstByteMs: firstByteMs, traces: traces, bytesLoaded: bytesLoaded, bytesTotal: bytesTotal,
                                         durationSeconds: durationSeconds, settings: settings, ladder: ladder, current: current,
                                         bufferLevelSeconds: bufferLevelSeconds, bufferTimeDefaultSeconds: bufferTimeDefaultSeconds, nowMs: nowMs)
    }

    /// `_changeQuality`: QUALITY_CHANGE_REQUESTED, which BOLA follows.
    private mutating func changeQuality(to representation: DashJSRepresentation) {
        bola.qualityChangeRequested(representation)
        current = representation
    }
}
