/// One emulated streaming session that you drive from outside, decision by decision: what an
/// RL training loop (Gymnasium's `reset`/`step`), an interactive replay or a scheduler of
/// several players on one network needs.
///
/// Create it for a profile, a trace, a video and a seed, then call ``next()`` until it finishes.
/// It stops where it needs an input — a decision (``SessionStep/decide(_:)``, answered with
/// ``decide(_:)``) or the answer of an abandonment check (``SessionStep/checkAbandonment(_:)``,
/// answered with ``answer(_:)``) — or has something to tell (a full-buffer wait, a finished
/// request); ``nextEvent()`` also stops at every ``NetworkEvent``. It plays exactly as
/// ``SessionEmulator/run(_:strategyID:trace:video:seed:)`` does, which is a loop over the same
/// engine with a ``SessionStrategy`` answering:
///
/// ```swift
/// var session = try StreamingSession(profile: .sabre, trace: trace, video: video, seed: 1)
/// while true {
///     switch try session.next() {
///     case .decide(let context):
///         try session.decide(RequestDecision(level: context.bufferSeconds > 10 ? context.levelCount - 1 : 0))
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
/// session: every later call throws it again. A copy is an independent snapshot of the session.
public struct StreamingSession: Sendable {
    private var engine: any SessionDriving

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
            engine = WholeTransferEngine(engine: SessionEngine(setup: setup, model: WholeTransferModel(settings: settings, setup: setup)))
        case .segmentBuffer(let settings):
            engine = SegmentBufferEngine(engine: SessionEngine(setup: setup, model: SegmentBufferModel(settings: settings, setup: setup)))
        case .live(let settings):
            engine = LiveStreamEngine(engine: SessionEngine(setup: setup, model: LiveStreamModel(settings: settings, setup: setup)))
        }
    }

    /// What a strategy learns once, before the first decision (the video a live session repeats,
    /// the segments it plays).
    public var info: SessionInfo { engine.info }

    /// What a strategy sees now: before a decision, the context it decides on.
    public var context: DecisionContext { engine.context() }

    /// The segment the next decision is for (0-based).
    public var segmentIndex: Int { engine.segmentIndex }

    /// Session time now (as of the latest finished request or wait), seconds.
    public var nowSeconds: Double { engine.nowMs / 1000 }

    /// The rows of the segments delivered so far.
    public var segments: [SegmentRecord] { engine.segments }

    /// Every request so far, abandoned ones included.
    public var downloads: [DownloadRecord] { engine.downloads }

    /// Runs to the next point that needs an input, tells something, or ends. While the session
    /// waits for an input it returns the same point again.
    public mutating func next() throws(EmulationError) -> SessionStep {
        try engine.step(events: false)
    }

    /// As ``next()``, also stopping at every ``NetworkEvent`` of a request under way.
    public mutating func nextEvent() throws(EmulationError) -> SessionStep {
        try engine.step(events: true)
    }

    /// Starts the request `decision` asks for; the session must be waiting for a decision.
    public mutating func decide(_ decision: RequestDecision) throws(EmulationError) {
        try engine.decide(decision)
    }

    /// Answers the abandonment check the session stopped at.
    public mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) {
        try engine.answer(answer)
    }

    /// Plays the rest of the session with `strategy` (fresh for it; set up here), as
    /// ``SessionEmulator`` does.
    public mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}
