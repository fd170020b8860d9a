/// One emulated streaming session that you drive from outside, decision by decision: what an
/// RL training loop (Gymnasium's `reset`/`step`), an interactive replay or a scheduler of
/// several players on one network needs.
///
/// Create it for a profile, a trace, a video and a seed, then call ``next()`` until it finishes.
/// It stops where it needs an input — a decision (``SessionStep/decide``, made on ``context``:
/// ``decide(with:)`` lends it to a closure, ``decide(_:)`` takes a decision) or the answer of an
/// abandonment check
/// (``SessionStep/checkAbandonment(_:)``, given with ``answer(_:)``) — or has something to tell
/// (a full-buffer wait, a finished request); ``nextEvent()`` also stops at every
/// ``NetworkEvent``. It plays exactly as ``SessionEmulator/run(_:strategyID:trace:video:seed:)``
/// does, which is a loop over the same engine with a ``SessionStrategy`` answering:
///
/// ```swift
/// var session = try StreamingSession(profile: .sabre, trace: trace, video: video, seed: 1)
/// while true {
///     switch try session.next() {
///     case .decide:
///         try session.decide { context in RequestDecision(level: context.bufferSeconds > 10 ? context.levelCount - 1 : 0) }
///     case .checkAbandonment(let progress):
///         try session.answer(progress.projectedSeconds > 8 ? .abandon(to: 0) : .goOn)
///     case .waited, .downloaded, .network: continue
///     case .finished(let result): return result
///     }
/// }
/// ```
///
/// An input the session does not wait for, a level outside the ladder or a delay that is not a
/// finite number of seconds ≥ 0 is an ``EmulationError`` naming the session (its strategy id and
/// trace) and changes nothing. An error of the emulation itself (a time or step limit) ends the
/// session: every later call throws it again. A copy is an independent snapshot of the session
/// (it shares the session's storage until one of them moves on).
///
/// Stepping costs what the batch path costs: the session is one reference to an engine
/// specialised for its player model, a step is a small value, and the context is kept in place
/// and lent to ``decide(with:)``, so `session.decide { policy.decide($0) }` copies and retains
/// nothing.
public struct StreamingSession: Sendable {
    private var storage: SessionStorage

    /// A session of `video` over `trace` under `profile`; `segmentsToPlay` overrides the profile's
    /// count, `strategyID` names the session in errors.
    public init(
        profile: EmulationProfile, trace: NetworkTrace, video: Video, seed: UInt64 = 0, segmentsToPlay: Int? = nil,
        strategyID: String = "session", recordsTransitions: Bool = true
    ) throws(EmulationError) {
        let emulator = SessionEmulator(profile: profile, segmentsToPlay: segmentsToPlay, recordsTransitions: recordsTransitions)
        try self.init(emulator: emulator, strategyID: strategyID, trace: trace, video: video, seed: seed)
    }

    /// A session as `emulator` plays it.
    public init(emulator: SessionEmulator, strategyID: String, trace: NetworkTrace, video: Video, seed: UInt64 = 0) throws(EmulationError) {
        let setup = try SessionSetup(emulator: emulator, strategyID: strategyID, trace: trace, video: video, seed: seed)
        switch setup.profile.mechanics {
        case .wholeTransfers(let settings):
            storage = StepperStorage(SessionStepper(engine: SessionEngine(setup: setup, model: WholeTransferModel(settings: settings, setup: setup))))
        case .segmentBuffer(let settings):
            storage = StepperStorage(SessionStepper(engine: SessionEngine(setup: setup, model: SegmentBufferModel(settings: settings, setup: setup))))
        case .live(let settings):
            storage = StepperStorage(SessionStepper(engine: SessionEngine(setup: setup, model: LiveStreamModel(settings: settings, setup: setup))))
        }
    }

    /// What a strategy learns once, before the first decision (the video a live session repeats,
    /// the segments it plays).
    public var info: SessionInfo {
        switch storage.model {
        case .wholeTransfers: storage.stepper(WholeTransferModel.self).pointee.engine.info
        case .segmentBuffer: storage.stepper(SegmentBufferModel.self).pointee.engine.info
        case .live: storage.stepper(LiveStreamModel.self).pointee.engine.info
        }
    }

    /// What a strategy sees now: at a decision, the context to decide on; after a wait or a
    /// request, what `didWait` and `didDownload` hear. A copy; ``decide(with:)`` lends the one the
    /// session keeps instead.
    public var context: DecisionContext {
        switch storage.model {
        case .wholeTransfers: SessionStepper.currentContext(storage.stepper(WholeTransferModel.self))
        case .segmentBuffer: SessionStepper.currentContext(storage.stepper(SegmentBufferModel.self))
        case .live: SessionStepper.currentContext(storage.stepper(LiveStreamModel.self))
        }
    }

    /// ``context``'s `bufferSeconds` without copying the context: what a caller reading the
    /// buffer at every step (Pensieve's `buffer_size`) needs.
    public var bufferSeconds: Double {
        switch storage.model {
        case .wholeTransfers: SessionStepper.currentBufferSeconds(storage.stepper(WholeTransferModel.self))
        case .segmentBuffer: SessionStepper.currentBufferSeconds(storage.stepper(SegmentBufferModel.self))
        case .live: SessionStepper.currentBufferSeconds(storage.stepper(LiveStreamModel.self))
        }
    }

    /// The segment the next decision is for (0-based).
    public var segmentIndex: Int {
        switch storage.model {
        case .wholeTransfers: storage.stepper(WholeTransferModel.self).pointee.engine.segmentIndex
        case .segmentBuffer: storage.stepper(SegmentBufferModel.self).pointee.engine.segmentIndex
        case .live: storage.stepper(LiveStreamModel.self).pointee.engine.segmentIndex
        }
    }

    /// Session time now (as of the latest finished request or wait), seconds.
    public var nowSeconds: Double {
        switch storage.model {
        case .wholeTransfers: storage.stepper(WholeTransferModel.self).pointee.engine.model.nowMs / 1000
        case .segmentBuffer: storage.stepper(SegmentBufferModel.self).pointee.engine.model.nowMs / 1000
        case .live: storage.stepper(LiveStreamModel.self).pointee.engine.model.nowMs / 1000
        }
    }

    /// The rows of the segments delivered so far.
    public var segments: [SegmentRecord] {
        switch storage.model {
        case .wholeTransfers: storage.stepper(WholeTransferModel.self).pointee.engine.recorder.segments
        case .segmentBuffer: storage.stepper(SegmentBufferModel.self).pointee.engine.recorder.segments
        case .live: storage.stepper(LiveStreamModel.self).pointee.engine.recorder.segments
        }
    }

    /// Every request so far, abandoned ones included.
    public var downloads: [DownloadRecord] {
        switch storage.model {
        case .wholeTransfers: storage.stepper(WholeTransferModel.self).pointee.engine.recorder.downloads
        case .segmentBuffer: storage.stepper(SegmentBufferModel.self).pointee.engine.recorder.downloads
        case .live: storage.stepper(LiveStreamModel.self).pointee.engine.recorder.downloads
        }
    }

    /// Runs to the next point that needs an input, tells something, or ends. While the session
    /// waits for an input it returns the same point again.
    public mutating func next() throws(EmulationError) -> SessionStep {
        try step(events: false)
    }

    /// As ``next()``, also stopping at every ``NetworkEvent`` of a request under way.
    public mutating func nextEvent() throws(EmulationError) -> SessionStep {
        try step(events: true)
    }

    @inline(__always)
    private mutating func step(events: Bool) throws(EmulationError) -> SessionStep {
        makeUnique()
        switch storage.model {
        case .wholeTransfers: return try storage.stepper(WholeTransferModel.self).pointee.step(events: events)
        case .segmentBuffer: return try storage.stepper(SegmentBufferModel.self).pointee.step(events: events)
        case .live: return try storage.stepper(LiveStreamModel.self).pointee.step(events: events)
        }
    }

    /// Starts the request `decision` asks for; the session must be waiting for a decision.
    public mutating func decide(_ decision: RequestDecision) throws(EmulationError) {
        makeUnique()
        switch storage.model {
        case .wholeTransfers: try storage.stepper(WholeTransferModel.self).pointee.decide(decision)
        case .segmentBuffer: try storage.stepper(SegmentBufferModel.self).pointee.decide(decision)
        case .live: try storage.stepper(LiveStreamModel.self).pointee.decide(decision)
        }
    }

    /// Starts the request that `choose` decides on the session's context, lent to it, not
    /// copied: what a loop answering many decisions calls. The session must be waiting for a
    /// decision (else `choose` is not called); an error `choose` throws is rethrown and changes
    /// nothing.
    public mutating func decide(with choose: (DecisionContext) throws -> RequestDecision) throws {
        makeUnique()
        switch storage.model {
        case .wholeTransfers: try storage.stepper(WholeTransferModel.self).pointee.decide(with: choose)
        case .segmentBuffer: try storage.stepper(SegmentBufferModel.self).pointee.decide(with: choose)
        case .live: try storage.stepper(LiveStreamModel.self).pointee.decide(with: choose)
        }
    }

    /// Answers the abandonment check the session stopped at.
    public mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) {
        makeUnique()
        switch storage.model {
        case .wholeTransfers: try storage.stepper(WholeTransferModel.self).pointee.answer(answer)
        case .segmentBuffer: try storage.stepper(SegmentBufferModel.self).pointee.answer(answer)
        case .live: try storage.stepper(LiveStreamModel.self).pointee.answer(answer)
        }
    }

    /// Plays the rest of the session with `strategy` (fresh for it; set up here), as
    /// ``SessionEmulator`` does.
    public mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        makeUnique()
        switch storage.model {
        case .wholeTransfers: return try storage.stepper(WholeTransferModel.self).pointee.run(&strategy)
        case .segmentBuffer: return try storage.stepper(SegmentBufferModel.self).pointee.run(&strategy)
        case .live: return try storage.stepper(LiveStreamModel.self).pointee.run(&strategy)
        }
    }

    /// Gives this session a storage of its own before it changes, if a copy shares it.
    @inline(__always)
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        switch storage.model {
        case .wholeTransfers: storage = unsafeDowncast(storage, to: StepperStorage<WholeTransferModel>.self).copy()
        case .segmentBuffer: storage = unsafeDowncast(storage, to: StepperStorage<SegmentBufferModel>.self).copy()
        case .live: storage = unsafeDowncast(storage, to: StepperStorage<LiveStreamModel>.self).copy()
        }
    }
}
