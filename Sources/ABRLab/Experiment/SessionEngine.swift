/// One session driven from outside, specialised for its player model: it runs until it needs
/// an input (a decision, an abandonment answer), has something to tell (a wait, a finished
/// request, a network event), or ends; checks what it is given; and keeps the player model and
/// the recorder. ``StreamingSession`` is its public face, ``SessionEmulator`` its batch loop.
///
/// What runs at every step is inlined: a call that is not, on an engine (or recorder) held in
/// memory, is given a copy of the whole value, a kilobyte and more, to read.
struct SessionEngine<Model: PlayerModel>: Sendable {
    /// Where the session stands between two calls. Written at every step, it holds plain
    /// numbers only, so a write is a store; how the session ended is kept apart (``Ending``).
    private enum Phase: Sendable {
        /// The previous request is told; the next one is to be prepared.
        case beforeRequest
        case awaitingDecision
        case requesting
        case awaitingAnswer(DownloadProgress)
        case ended
    }

    /// How the session ended, once its phase is ``Phase/ended``.
    private enum Ending: Sendable {
        case playing
        case finished(SessionResult)
        /// The session ended with an error, which every later call throws again.
        case failed(EmulationError)
    }

    let strategyID: String
    let traceName: String
    let profileName: String
    let levelCount: Int
    let segmentCount: Int
    let info: SessionInfo
    private(set) var recorder: SessionRecorder
    /// The player model; a shared link walks its quiet events directly, as they change nothing
    /// the engine keeps (``SharedLinkModel/walkSharedQuietly(_:fraction:seconds:through:)``).
    var model: Model
    private var phase = Phase.beforeRequest
    private var ending = Ending.playing
    /// The segment the next decision is for.
    private(set) var segmentIndex = 0
    /// What the model does beyond every model (``PlayerCapabilities``).
    private let capabilities = PlayerCapabilities(Model.self)
    /// The segment the latest request was decided for.
    private(set) var requestedIndex = 0
    /// Abandoned attempts at the current segment.
    private var abandonments = 0
    /// The level the first request plays at without a decision (``SessionEmulator/firstLevel``);
    /// `nil` once it has started, or when the strategy chooses it.
    private var firstLevel: Int?

    init(setup: SessionSetup, model: consuming Model) {
        strategyID = setup.strategyID
        traceName = setup.trace.name
        profileName = setup.profile.name
        levelCount = setup.video.levelCount
        segmentCount = setup.segmentCount
        info = setup.info
        recorder = setup.recorder()
        self.model = model
        firstLevel = setup.firstLevel
    }

    /// What the session recorded, once it has finished.
    var result: SessionResult {
        guard case .finished(let result) = ending else { preconditionFailure("the session has not finished") }
        return result
    }

    /// The record of the request that ended last.
    @inline(__always)
    var lastDownload: DownloadRecord { recorder.downloads[recorder.downloads.count - 1] }

    /// What a strategy sees now.
    func context() -> DecisionContext {
        var context = recorder.context(index: segmentIndex, bufferMs: model.bufferMs, nowMs: model.nowMs)
        decorate(&context)
        return context
    }

    /// Brings a context of this session's up to date: what ``context()`` returns now.
    @inline(__always)
    func refresh(_ context: inout DecisionContext) {
        recorder.refresh(&context, index: segmentIndex, bufferMs: model.bufferMs, nowMs: model.nowMs)
        decorate(&context)
    }

    /// Adds a live model's state to `context` (``PlaysLive/decorate(_:)``).
    @inline(__always)
    private func decorate(_ context: inout DecisionContext) {
        guard capabilities.playsLive, let live = Model.self as? any PlaysLive.Type else { return }
        withUnsafePointer(to: model) { live.decorate($0, &context) }
    }

    /// Runs to the next point: with `events`, also to every network event. An error ends the
    /// session: every later call throws it again.
    @inline(__always)
    mutating func advance(events: Bool) throws(EmulationError) -> EnginePoint {
        do { return try run(events: events) } catch {
            fail(error)
            throw error
        }
    }

    @inline(__always)
    private mutating func run(events: Bool) throws(EmulationError) -> EnginePoint {
        switch phase {
        case .ended:
            if case .failed(let error) = ending { throw error }
            return .finished
        case .awaitingDecision: return .decide
        case .awaitingAnswer(let progress): return .check(progress)
        case .beforeRequest:
            guard segmentIndex < segmentCount else {
                ending = .finished(model.finish(&recorder, traceName: traceName, profileName: profileName))
                phase = .ended
                return .finished
            }
            try model.spendStep()
            let waitMs = try waitForRoom()
            phase = .awaitingDecision
            if let level = firstLevel {
                // The first request is the settings', as the strategy would have asked it; the
                // strategy hears of it as of any download, and decides from the next segment on.
                firstLevel = nil
                try start(RequestDecision(level: level))
                if waitMs > 0 { return .waited(milliseconds: waitMs) }
                return try request(events: events)
            }
            return waitMs > 0 ? .waited(milliseconds: waitMs) : .decide
        case .requesting:
            return try request(events: events)
        }
    }

    /// Steps the request under way to the engine's next point.
    @inline(__always)
    private mutating func request(events: Bool) throws(EmulationError) -> EnginePoint {
        switch try model.step(&recorder, events: events) {
        case .event(let event):
            return .event(event)
        case .playback(let update):
            return .playback(update)
        case .check(let progress):
            phase = .awaitingAnswer(progress)
            return .check(progress)
        case .done(let delivered):
            requestedIndex = segmentIndex
            if delivered {
                abandonments = 0
                // A live player that seeked to the live edge goes on from the segment it landed in.
                segmentIndex = segment(after: segmentIndex)
            } else if recorder.downloads[recorder.downloads.count - 1].abandonedToLevel != nil {
                abandonments += 1
                guard abandonments < SessionEmulator.maxAbandonmentsPerSegment else {
                    throw .abandonmentLimit(check: strategyID, segment: requestedIndex, trace: traceName)
                }
            }
            phase = .beforeRequest
            return .downloaded
        }
    }

    /// Waits for room in a full buffer before a request, for a model that does (``WaitsForRoom``);
    /// the wait in milliseconds, 0 for none.
    @inline(__always)
    private mutating func waitForRoom() throws(EmulationError) -> Double {
        guard capabilities.waitsForRoom, let waiting = Model.self as? any WaitsForRoom.Type else { return 0 }
        return try withUnsafeMutablePointer(to: &model) { waiting.waitForRoom($0, &recorder) }.get()
    }

    /// The segment after `segment`, delivered: the next one, or the one a live player landed in
    /// after seeking to the live edge (``PlaysLive/segment(after:)``).
    @inline(__always)
    private func segment(after segment: Int) -> Int {
        guard capabilities.playsLive, let live = Model.self as? any PlaysLive.Type else { return segment + 1 }
        return withUnsafePointer(to: model) { live.segment($0, after: segment) }
    }

    /// Starts the request `decision` asks for at the decision the engine stopped at (the caller
    /// has it from ``advance(events:)``). A decision out of range changes nothing; an error of
    /// the request ends the session. Inlined: a call would copy the engine to check the decision.
    @inline(__always)
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) {
        try checkRequest(decision)
        try start(decision)
    }

    /// Throws what ``decide(_:)`` would refuse `decision` with (its level, delay and rate),
    /// changing nothing.
    @inline(__always)
    func checkRequest(_ decision: RequestDecision) throws(EmulationError) {
        guard decision.level >= 0, decision.level < levelCount else {
            throw .levelOutOfRange(session: sessionName, segment: segmentIndex, level: decision.level, levelCount: levelCount)
        }
        guard decision.delaySeconds.isFinite, decision.delaySeconds >= 0 else {
            throw .strategyFailed(.delayRefused(session: sessionName, segment: segmentIndex, delaySeconds: decision.delaySeconds))
        }
        if let rate = decision.playbackRate {
            guard capabilities.playsLive else {
                throw .strategyFailed(.rateWithoutLive(session: sessionName, segment: segmentIndex))
            }
            guard LiveSettings.playbackRateRange.contains(rate) else {
                throw .strategyFailed(.rateOutOfRange(session: sessionName, segment: segmentIndex, rate: rate, atSeconds: nil))
            }
        }
    }

    /// Throws unless the session waits for a decision.
    @inline(__always)
    func checkAwaitingDecision() throws(EmulationError) {
        if case .ended = phase, case .failed(let error) = ending { throw error }
        guard case .awaitingDecision = phase else { throw unexpected("a decision") }
    }

    /// Starts the request of a decision that passed ``checkRequest(_:)``; an error ends the session.
    mutating func start(_ decision: RequestDecision) throws(EmulationError) {
        phase = .requesting
        do { try model.begin(segment: segmentIndex, decision: decision, recorder: &recorder) } catch {
            fail(error)
            throw error
        }
    }

    /// Makes the session stop at playback updates (live only).
    mutating func enablePlaybackUpdates() {
        guard let live = Model.self as? any PlaysLive.Type else { return }
        withUnsafeMutablePointer(to: &model) { live.enablePlaybackUpdates($0) }
    }

    /// Sets the rate a strategy asked for at the playback update the session stopped at.
    mutating func setPlaybackRate(_ rate: Double, at update: PlaybackUpdate) throws(EmulationError) {
        guard LiveSettings.playbackRateRange.contains(rate) else {
            let error = EmulationError.strategyFailed(.rateOutOfRange(
                session: sessionName, segment: update.segmentIndex, rate: rate, atSeconds: update.sessionSeconds
            ))
            fail(error)
            throw error
        }
        // A playback update comes only from a live model.
        guard let live = Model.self as? any PlaysLive.Type else { return }
        withUnsafeMutablePointer(to: &model) { live.setPlaybackRate($0, rate) }
    }

    /// Seeks to the live edge as a strategy's catch-up asked at the playback update the session stopped at.
    mutating func seekToLive() {
        guard let live = Model.self as? any PlaysLive.Type else { return }
        withUnsafeMutablePointer(to: &model) { live.seekToLive($0) }
    }

    /// Ends the session with `error`.
    private mutating func fail(_ error: EmulationError) {
        ending = .failed(error)
        phase = .ended
    }

    /// Answers the abandonment check the session stopped at.
    @inline(__always)
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) {
        if case .ended = phase, case .failed(let error) = ending { throw error }
        guard case .awaitingAnswer(let progress) = phase else { throw unexpected("an abandonment answer") }
        if let lower = answer.level, !(lower >= 0 && lower < progress.level) {
            throw .strategyFailed(.abandonmentLevelNotLower(session: sessionName, level: lower, downloadingLevel: progress.level))
        }
        guard answer.recheck.isValid else {
            throw .strategyFailed(.recheckAtNaN(session: sessionName, segment: progress.segmentIndex))
        }
        // A check comes only from a model that checks abandonment.
        if capabilities.checksAbandonment, let checking = Model.self as? any ChecksAbandonment.Type {
            withUnsafeMutablePointer(to: &model) { checking.answer($0, answer) }
        }
        phase = .requesting
    }

    /// How errors name the session: its strategy and trace.
    private var sessionName: String { "\(strategyID) on \(traceName)" }

    /// The error for an input the session does not wait for now.
    private func unexpected(_ given: String) -> EmulationError {
        let awaiting = switch phase {
        case .awaitingDecision: "a decision for segment \(segmentIndex + 1)"
        case .awaitingAnswer(let progress): "the answer of an abandonment check on segment \(progress.segmentIndex + 1)"
        case .beforeRequest, .requesting: "nothing until it is advanced to its next step"
        case .ended: if case .failed = ending { "nothing: it has failed" } else { "nothing: it has ended" }
        }
        return .unexpectedInput(session: sessionName, given: given, awaiting: awaiting)
    }
}

/// Sharing a link (``LinkGroup``): only a model that can (``SharedLinkModel``).
extension SessionEngine where Model: SharedLinkModel {
    /// Moves the network `seconds` into the trace before the first request: the player joins a
    /// shared link late (``LinkGroup``).
    mutating func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        guard case .beforeRequest = phase, segmentIndex == 0 else { preconditionFailure("a player joins its link before it starts") }
        do { try model.joinLink(atSeconds: seconds) } catch {
            fail(error)
            throw error
        }
    }

    /// Moves the transfer in its data phase on a shared link: the event it reached or the
    /// abandonment check it stopped at (which then waits for its answer), `nil` after a stretch
    /// before its next event. An error ends the session.
    mutating func stepShared(_ move: LinkShareMove) throws(EmulationError) -> SharedStep? {
        guard case .requesting = phase else { preconditionFailure("no request under way") }
        let step: SharedStep?
        do { step = try model.stepShared(&recorder, move: move) } catch {
            fail(error)
            throw error
        }
        if case .check(let progress) = step { phase = .awaitingAnswer(progress) }
        return step
    }
}

/// What a ``SessionEngine`` stopped at; a decision's context, a finished request's record (the
/// recorder's last download) and the session's result are read by whoever needs them, so the
/// point stays small and holds no reference to release.
enum EnginePoint {
    case decide
    case check(DownloadProgress)
    case waited(milliseconds: Double)
    case downloaded
    case event(NetworkEvent)
    /// A live playback update, only when enabled (``enablePlaybackUpdates()``).
    case playback(PlaybackUpdate)
    case finished
}

