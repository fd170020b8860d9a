// One recorded session replayed through the Swift dash.js model, step for step as replay.mjs drives dash.js's own
// code (its Session.run, applyState, applyEvent, decideQuality, decideAbandon, decideCatchup), with the
// player-side state the harness's collaborator stubs hold. Spec sections E.2-E.4, F.

struct DashJSReplaySession {
    let id: String
    let ladder: DashJSLadder
    let fragmentDurationSeconds: Double
    var controller: DashJSAbrController
    var catchup = DashJSCatchupController()
    var timeSeconds = 0.0
    var isPaused = false
    var isSeeking = false
    /// PlaybackController.getPlaybackStalled as the harness keeps it.
    var playbackStalled = false
    var initialCatchupModeActivated: Bool
    /// `playbackController.getBufferLevel()` override; nil reads the metric.
    var playbackBufferLevelSeconds: Double?
    var playbackQuality = (dropped: 0.0, total: 0.0)

    init(first record: DashJSRecord, nowMs: Double) throws(DashJSReplayError) {
        guard let header = record.header else { throw .init("session \(record.session): first record needs representations") }
        let settings = header.settings
        id = record.session
        ladder = DashJSLadder(header.representations)
        fragmentDurationSeconds = header.fragmentDurationSeconds
        guard let currentId = record.currentRepresentationId, let current = ladder.representation(id: currentId) else {
            throw .init("session \(record.session): quality decision needs currentRepresentationId")
        }
        let lowLatency = record.lowLatencyMode ?? false
        initialCatchupModeActivated = lowLatency
        controller = DashJSAbrController(ladder: ladder, settings: settings, current: current, isDynamic: header.isDynamic,
                                         lowLatencyMode: lowLatency, nowMs: record.nowMs ?? nowMs, seed: header.seed ?? 1)
        controller.liveDelaySeconds = record.liveDelaySeconds.flatMap { $0 } ?? .nan
        controller.currentLiveLatencySeconds = record.currentLiveLatencySeconds ?? .nan
        controller.playbackRate = record.playbackRate ?? 1
        timeSeconds = record.timeSeconds ?? 0
        isPaused = record.isPaused ?? false
        isSeeking = record.isSeeking ?? false
    }

    func representation(_ id: String?) throws(DashJSReplayError) -> DashJSRepresentation {
        guard let id else { return controller.current }
        guard let representation = ladder.representation(id: id) else { throw .init("unknown representation id \(id)") }
        return representation
    }

    /// The record's output line: its state and events applied, then its decision with what the rules saw.
    mutating func run(_ record: DashJSRecord) throws(DashJSReplayError) -> [(String, DashJSOutputJSON)] {
        try prepare(record)
        var out: [(String, DashJSOutputJSON)] = [("session", .string(id)), ("seq", .optionalNumber(record.seq)),
                                                 ("kind", .string(record.kind.rawValue))]
        switch record.kind {
        case .quality: out += decideQuality(record)
        case .abandon: out += try decideAbandon(record)
        case .catchup: out += decideCatchup()
        case .events: break
        }
        return out
    }

    /// The record's answer alone: the steps of ``run(_:)`` without the reports of its output line.
    mutating func answer(_ record: DashJSRecord) throws(DashJSReplayError) -> DashJSAnswer {
        try prepare(record)
        let current = controller.current
        switch record.kind {
        case .quality:
            let decision = controller.checkPlaybackQuality()
            if !record.followDecision && decision.changed { controller.current = current }
            return DashJSAnswer(kind: .quality, chosen: decision.chosen, loadDelayMs: decision.loadDelayMs, newRate: nil)
        case .abandon:
            let decision = controller.loadingProgress(try loadingRequest(record.request))
            if !record.followDecision && decision.changed { controller.current = current }
            return DashJSAnswer(kind: .abandon, chosen: decision.best?.representation, loadDelayMs: nil, newRate: nil)
        case .catchup:
            return DashJSAnswer(kind: .catchup, chosen: nil, loadDelayMs: nil, newRate: progressCatchup().outcome.newRate)
        case .events:
            return DashJSAnswer(kind: .events, chosen: nil, loadDelayMs: nil, newRate: nil)
        }
    }

    /// A quality record's decision with each rule's proposal, and the stateless ThroughputRule probed after it as
    /// replay.mjs probes it (nil without a ThroughputRule): the steps of ``answer(_:)`` for ``DashJSAdvisor``.
    mutating func advise(_ record: DashJSRecord) throws(DashJSReplayError)
        -> (decision: DashJSAbrController.QualityDecision, throughputRule: DashJSSwitchRequest?) {
        try prepare(record)
        let current = controller.current
        let decision = controller.checkPlaybackQuality()
        let probe = controller.probeThroughputRule()
        if !record.followDecision && decision.changed { controller.current = current }
        return (decision, probe)
    }

    /// What ``answer(_:)`` answers an abandonment record that has only its clock, events and request, the decision
    /// followed (every progress check of DashJSBrowser: the first's header state is the state the session starts
    /// in, which applyState would set again), without the record: the same steps, AbandonRequestsRule its early outs
    /// first, so that most checks cost little more than their events.
    mutating func progressCheck(nowMs: Double?, events: [DashJSRecord.Event], request: DashJSRecord.AbandonRequest.Progress,
                                representationId: String?) throws(DashJSReplayError) -> DashJSRepresentation? {
        if let nowMs { controller.advanceClock(toMs: Self.earliestMs(nowMs, events)) }
        for event in events { try apply(event) }
        if let nowMs { controller.advanceClock(toMs: nowMs) }
        // Where the rule would propose nothing it has no effects, and the browser names only the ladder's
        // representations, so that there is nothing to throw: the loading request is built only for a candidate.
        guard case .some = controller.abandonCandidate(index: request.index, firstByteMs: request.firstByteMs, traces: request.traces,
                                                       bytesLoaded: request.bytesLoaded, bytesTotal: request.bytesTotal,
                                                       durationSeconds: request.durationSeconds ?? fragmentDurationSeconds) else { return nil }
        let loading = DashJSRecord.AbandonRequest(request, representationId: representationId)
        return controller.loadingProgress(try loadingRequest(loading)).best?.representation
    }

    /// The record's clock at its earliest event, where applyState and the events take it.
    private static func earliestMs(_ nowMs: Double, _ events: [DashJSRecord.Event]) -> Double {
        var earliest = nowMs
        for event in events {
            if let at = event.atMs { earliest = Swift.min(earliest, at) }
        }
        return earliest
    }

    /// The record's clock, state and events, as applyState and applyEvent take them before a decision.
    private mutating func prepare(_ record: DashJSRecord) throws(DashJSReplayError) {
        if let nowMs = record.nowMs { controller.advanceClock(toMs: Self.earliestMs(nowMs, record.events)) }
        try applyState(record)
        for event in record.events { try apply(event) }
        if let nowMs = record.nowMs { controller.advanceClock(toMs: nowMs) }
        if let id = record.currentRepresentationId { controller.current = try representation(id) }
        if let level = record.bufferLevelSeconds, record.kind != .catchup { bufferLevel(level) }
        if let state = record.bufferState { bufferState(state) }
        if record.kind == .catchup, let level = record.bufferLevelSeconds, record.playbackBufferLevelSeconds == nil {
            playbackBufferLevelSeconds = level
        }
    }

    private mutating func applyState(_ record: DashJSRecord) throws(DashJSReplayError) {
        if let lowLatency = record.lowLatencyMode {
            controller.lowLatencyMode = lowLatency
            if lowLatency { initialCatchupModeActivated = true }
        }
        if let delay = record.liveDelaySeconds { controller.liveDelaySeconds = delay ?? .nan }
        if let latency = record.currentLiveLatencySeconds { controller.currentLiveLatencySeconds = latency }
        if let rate = record.playbackRate { controller.playbackRate = rate }
        if let time = record.timeSeconds { timeSeconds = time }
        if let paused = record.isPaused { isPaused = paused }
        if let seeking = record.isSeeking { isSeeking = seeking }
        if let stalled = record.playbackStalled { playbackStalled = stalled }
        if let level = record.playbackBufferLevelSeconds { playbackBufferLevelSeconds = level }
        if let quality = record.playbackQuality { setPlaybackQuality(quality) }
        if let id = record.currentRepresentationId { controller.current = try representation(id) }
    }

    private mutating func setPlaybackQuality(_ quality: (dropped: Double, total: Double)) {
        playbackQuality = quality
        controller.setPlaybackQuality(droppedVideoFrames: quality.dropped, totalVideoFrames: quality.total)
    }

    private mutating func apply(_ event: DashJSRecord.Event) throws(DashJSReplayError) {
        if let at = event.atMs { controller.advanceClock(toMs: at) }
        switch event {
        case .httpRequest(let request, _, _): controller.httpRequest(request)
        case .fragmentLoaded(let start, let duration, let id, _):
            controller.fragmentLoaded(start: start, durationSeconds: duration ?? fragmentDurationSeconds, representation: try representation(id))
        case .bytesAppended(let startTime, _): controller.bytesAppended(startTime: startTime)
        case .bufferLevel(let seconds, _): bufferLevel(seconds)
        case .bufferState(let state, _): bufferState(state)
        case .seeking: controller.seeking()
        case .seeked: catchup.seeked()
        case .qualityChangeRendered(let id, _):
            _ = try representation(id)
            controller.qualityChangeRendered(id: id)
        case .fragmentLoadingAbandoned: controller.fragmentLoadingAbandoned()
        case .playbackQuality(let dropped, let total, _): setPlaybackQuality((dropped, total))
        case .clock: break
        }
    }

    var playerBufferLevelSeconds: Double { playbackBufferLevelSeconds ?? controller.bufferLevelSeconds }

    /// BUFFER_LEVEL_UPDATED (catch-up reads the player's level before the new metric), then the BufferLevel metric.
    private mutating func bufferLevel(_ seconds: Double) {
        catchup.bufferLevelUpdated(playerBufferLevelSeconds: playerBufferLevelSeconds, liveDelaySeconds: controller.liveDelaySeconds)
        controller.bufferLevel(seconds: seconds)
    }

    private mutating func bufferState(_ state: String) {
        guard controller.bufferState(state) else { return }
        catchup.bufferStateChanged(isStalled: state == "bufferStalled")
        playbackStalled = state == "bufferStalled"
    }

    private static func snapshot(_ representation: DashJSRepresentation) -> DashJSOutputJSON {
        .object([("index", .number(Double(representation.absoluteIndex))), ("id", .string(representation.id)),
                 ("bandwidth", .number(representation.bandwidthBps))])
    }

    /// srSnapshot without `reason`: the reasons' messages are dash.js's log text, not decisions.
    private static func snapshot(_ request: DashJSSwitchRequest) -> DashJSOutputJSON {
        guard let representation = request.representation else {
            return .object([("index", .null), ("priority", .number(request.priority))])
        }
        return .object([("index", .number(Double(representation.absoluteIndex))), ("id", .string(representation.id)),
                         ("bandwidth", .number(representation.bandwidthBps)), ("priority", .number(request.priority))])
    }

    private var abandonmentState: DashJSOutputJSON { .string(controller.allowsLoad ? "allowload" : "abandonload") }

    private mutating func decideQuality(_ record: DashJSRecord) -> [(String, DashJSOutputJSON)] {
        let current = controller.current
        let settings = controller.settings
        let model = controller.throughput
        let dynamic = controller.isDynamic
        let throughput: DashJSOutputJSON = .object([
            ("averageThroughput", .number(model.averageThroughputKbps(settings: settings, isDynamic: dynamic))),
            ("safeAverageThroughput", .number(model.safeAverageThroughputKbps(settings: settings, isDynamic: dynamic))),
            ("averageLatency", .number(model.averageLatencyMs(settings: settings))),
            ("lastThroughput", .number(model.averageThroughputKbps(settings: settings, isDynamic: dynamic, mode: .arithmeticMean, sampleCount: 1))),
            ("samples", .number(Double(model.samples.count))),
        ])
        var out: [(String, DashJSOutputJSON)] = [("current", Self.snapshot(current)), ("bolaActive", .bool(controller.usesBola)),
                                                 ("abandonmentState", abandonmentState), ("throughput", throughput)]
        let decision = controller.checkPlaybackQuality()
        out.append(("rules", .object(decision.rules.map { ($0.name.rawValue, Self.snapshot($0.request)) })))
        out.append(("best", decision.best.map(Self.snapshot) ?? .null))
        out.append(("changed", .bool(decision.changed)))
        out.append(("chosenIndex", .number(Double(decision.chosen.absoluteIndex))))
        out.append(("chosenId", .string(decision.chosen.id)))
        out.append(("timeToLoadDelayMs", .optionalNumber(decision.loadDelayMs)))
        if record.probe {
            out.append(("probe", .object([("ThroughputRule", controller.probeThroughputRule().map(Self.snapshot) ?? .string("inactive"))])))
        }
        if !record.followDecision && decision.changed { controller.current = current }
        return out
    }

    /// The loading request of an abandonment check (an empty one when the record has none).
    private func loadingRequest(_ request: DashJSRecord.AbandonRequest?) throws(DashJSReplayError) -> DashJSLoadingRequest {
        let recorded = request ?? DashJSRecord.AbandonRequest(index: .nan, bytesLoaded: 0, bytesTotal: .nan, traces: DashJSTraceLog())
        return DashJSLoadingRequest(
            index: recorded.index, firstByteMs: recorded.firstByteMs, traces: recorded.traces, bytesLoaded: recorded.bytesLoaded,
            bytesTotal: recorded.bytesTotal, durationSeconds: recorded.durationSeconds ?? fragmentDurationSeconds,
            representation: try representation(recorded.representationId))
    }

    private mutating func decideAbandon(_ record: DashJSRecord) throws(DashJSReplayError) -> [(String, DashJSOutputJSON)] {
        let current = controller.current
        let request = try loadingRequest(record.request)
        let before = abandonmentState
        let decision = controller.loadingProgress(request)
        let proposed = decision.best?.representation
        let out: [(String, DashJSOutputJSON)] = [
            ("current", Self.snapshot(current)), ("abandonmentStateBefore", before),
            ("rules", .object(decision.rule.map { [("AbandonRequestsRule", Self.snapshot($0))] } ?? [])),
            ("best", decision.best.map(Self.snapshot) ?? .null),
            ("abandon", .bool(proposed != nil)), ("changed", .bool(decision.changed)),
            ("chosenIndex", proposed.map { .number(Double($0.absoluteIndex)) } ?? .null),
            ("chosenId", proposed.map { .string($0.id) } ?? .null),
            ("abandonmentStateAfter", abandonmentState),
        ]
        if !record.followDecision && decision.changed { controller.current = current }
        return out
    }

    /// PLAYBACK_PROGRESS through the catch-up controller: whether catch-up is on, the rate before, and the outcome.
    private mutating func progressCatchup() -> (enabled: Bool, rateBefore: Double, outcome: DashJSCatchupController.Outcome) {
        let settings = controller.settings
        let rateBefore = controller.playbackRate
        let enabled = settings.catchupEnabled ?? initialCatchupModeActivated
        let input = DashJSCatchupController.Input(
            isDynamic: controller.isDynamic, catchupEnabled: enabled, isPaused: isPaused, isSeeking: isSeeking, timeSeconds: timeSeconds,
            currentLiveLatencySeconds: controller.currentLiveLatencySeconds, liveDelaySeconds: controller.liveDelaySeconds,
            bufferLevelSeconds: playerBufferLevelSeconds, playbackRate: rateBefore, playbackStalled: playbackStalled)
        let outcome = catchup.playbackProgressed(input, settings: settings)
        if let rate = outcome.newRate { controller.playbackRate = rate }
        return (enabled, rateBefore, outcome)
    }

    private mutating func decideCatchup() -> [(String, DashJSOutputJSON)] {
        let settings = controller.settings
        let (enabled, rateBefore, outcome) = progressCatchup()
        let rates = DashJSCatchupController.rates(settings)
        return [("rateBefore", .number(rateBefore)), ("newRate", .optionalNumber(outcome.newRate)),
                ("playbackRate", .number(controller.playbackRate)), ("seekToLive", .bool(outcome.seekToLive)),
                ("playbackStalled", .bool(playbackStalled)), ("catchupEnabled", .bool(enabled)),
                ("rates", .object([("min", .number(rates.min)), ("max", .number(rates.max))])),
                ("maxDrift", .number(DashJSCatchupController.maxDrift(settings)))]
    }
}

struct DashJSReplayError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
