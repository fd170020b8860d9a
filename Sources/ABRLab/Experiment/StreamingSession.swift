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
        storage = try SessionSetup(emulator: emulator, strategyID: strategyID, trace: trace, video: video, seed: seed).storage()
    }

    /// What a strategy learns once, before the first decision (the video a live session repeats,
    /// the segments it plays).
    public var info: SessionInfo { storage.perform(Info()) }

    /// What a strategy sees now: at a decision, the context to decide on; after a wait or a
    /// request, what `didWait` and `didDownload` hear. A copy; ``decide(with:)`` lends the one the
    /// session keeps instead.
    public var context: DecisionContext { storage.perform(Context()) }

    /// ``context``'s `bufferSeconds` without copying the context: what a caller reading the
    /// buffer at every step (Pensieve's `buffer_size`) needs.
    public var bufferSeconds: Double { storage.perform(BufferSeconds()) }

    /// The segment the next decision is for (0-based).
    public var segmentIndex: Int { storage.perform(SegmentIndex()) }

    /// Session time now (as of the latest finished request or wait), seconds.
    public var nowSeconds: Double { storage.perform(NowSeconds()) }

    /// The rows of the segments delivered so far.
    public var segments: [SegmentRecord] { storage.perform(Segments()) }

    /// Every request so far, abandoned ones included.
    public var downloads: [DownloadRecord] { storage.perform(Downloads()) }

    /// Runs to the next point that needs an input, tells something, or ends. While the session
    /// waits for an input it returns the same point again.
    public mutating func next() throws(EmulationError) -> SessionStep {
        makeUnique()
        return try storage.perform(Step(events: false))
    }

    /// As ``next()``, also stopping at every ``NetworkEvent`` of a request under way.
    public mutating func nextEvent() throws(EmulationError) -> SessionStep {
        makeUnique()
        return try storage.perform(Step(events: true))
    }

    /// Starts the request `decision` asks for; the session must be waiting for a decision.
    public mutating func decide(_ decision: RequestDecision) throws(EmulationError) {
        makeUnique()
        try storage.perform(Decide(decision: decision))
    }

    /// Starts the request that `choose` decides on the session's context, lent to it, not
    /// copied: what a loop answering many decisions calls. The session must be waiting for a
    /// decision (else `choose` is not called); an error `choose` throws is rethrown and changes
    /// nothing.
    public mutating func decide(with choose: (DecisionContext) throws -> RequestDecision) throws {
        makeUnique()
        try storage.decide(with: choose)
    }

    /// Answers the abandonment check the session stopped at.
    public mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) {
        makeUnique()
        try storage.perform(Answer(answer: answer))
    }

    /// Plays the rest of the session with `strategy` (fresh for it; set up here), as
    /// ``SessionEmulator`` does.
    public mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        makeUnique()
        return try withUnsafeMutablePointer(to: &strategy) { strategy throws(EmulationError) in try storage.perform(Run(strategy: strategy)) }
    }

    /// Gives this session a storage of its own before it changes, if a copy shares it.
    @inline(__always)
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        storage = storage.perform(Copy())
    }
}

// What the session asks of its stepper, each written once for every model (``StepperOperation``).

private struct Info: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> SessionInfo { stepper.pointee.engine.info }
}

private struct Context: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> DecisionContext { SessionStepper.currentContext(stepper) }
}

private struct BufferSeconds: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> Double { SessionStepper.currentBufferSeconds(stepper) }
}

private struct SegmentIndex: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> Int { stepper.pointee.engine.segmentIndex }
}

private struct NowSeconds: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> Double { stepper.pointee.engine.model.nowMs / 1000 }
}

private struct Segments: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> [SegmentRecord] { stepper.pointee.engine.recorder.segments }
}

private struct Downloads: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> [DownloadRecord] { stepper.pointee.engine.recorder.downloads }
}

private struct Step: StepperOperation {
    let events: Bool
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) -> SessionStep {
        try stepper.pointee.step(events: events)
    }
}

private struct Decide: StepperOperation {
    let decision: RequestDecision
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) {
        try stepper.pointee.decide(decision)
    }
}

private struct Answer: StepperOperation {
    let answer: AbandonmentAnswer
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) {
        try stepper.pointee.engine.answer(answer)
    }
}

private struct Run<Strategy: SessionStrategy>: StepperOperation {
    let strategy: UnsafeMutablePointer<Strategy>
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) -> SessionResult {
        try stepper.pointee.run(&strategy.pointee)
    }
}

private struct Copy: StepperOperation {
    @inline(__always) func callAsFunction<Model>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> SessionStorage { StepperStorage(stepper.pointee) }
}
