/// A player's session on a shared link (``LinkGroup``): the storage of a stepper of a model that
/// can share a link (``SharedLinkModel``), reached as a ``StreamingSession`` reaches its own (one
/// switch on the model, then an operation specialised for it), with the operations only such a
/// model has, so no session of another model can be asked for them. Its strategy answers it as
/// the batch path answers one (``SessionEngine/play(_:context:events:)``).
struct SharedLinkSession {
    /// The player models that can share a link.
    private enum Model {
        case wholeTransfers
        case segmentBuffer
    }

    private let storage: SessionStorage
    private let model: Model

    /// The session `storage` holds, `nil` where its player model cannot share a link.
    init?(_ storage: SessionStorage) {
        switch storage.model {
        case .wholeTransfers: model = .wholeTransfers
        case .segmentBuffer: model = .segmentBuffer
        case .live: return nil
        }
        self.storage = storage
    }

    /// Runs `operation` on the stepper of this session's model, specialised for it.
    @inline(__always)
    private func perform<Operation: SharedLinkOperation>(_ operation: Operation) throws(Operation.Failure) -> Operation.Result {
        switch model {
        case .wholeTransfers: try operation(storage.stepper(WholeTransferModel.self))
        case .segmentBuffer: try operation(storage.stepper(SegmentBufferModel.self))
        }
    }

    /// What the session recorded, once it has finished.
    var result: SessionResult { perform(Finished()) }

    /// Tells `strategy`, fresh for this session, what it learns once.
    func setUp(_ strategy: inout OpenedStrategy) throws(EmulationError) {
        try withUnsafeMutablePointer(to: &strategy) { strategy throws(EmulationError) in try perform(SetUp(strategy: strategy)) }
    }

    /// Answers every point with `strategy` until the session ends or reaches a network event.
    func play(_ strategy: inout OpenedStrategy) throws(EmulationError) -> PlayStop {
        try withUnsafeMutablePointer(to: &strategy) { strategy throws(EmulationError) in try perform(Play(strategy: strategy)) }
    }

    /// Answers the abandonment check the session stopped at with `strategy`.
    func answer(_ progress: DownloadProgress, with strategy: inout OpenedStrategy) throws(EmulationError) {
        try withUnsafeMutablePointer(to: &strategy) { strategy throws(EmulationError) in
            try perform(Answer(progress: progress, strategy: strategy))
        }
    }

    /// Joins the link `seconds` into its trace, before the first step.
    func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        try perform(JoinLink(seconds: seconds))
    }

    /// The next stop of the transfer in its data phase at `fraction` of the link, from link time
    /// `seconds` (``SharedPlan``).
    func planShared(fromSeconds seconds: Double, fraction: Double) -> SharedPlan {
        perform(PlanShared(seconds: seconds, fraction: fraction))
    }

    /// Walks at most `steps` quiet events of the transfer in its data phase at `fraction` of the
    /// link while they fall at or before link time `limitSeconds`; returns how many it walked.
    func walkSharedQuietly(_ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double) -> Int {
        withUnsafeMutablePointer(to: &seconds) { seconds in
            perform(WalkSharedQuietly(steps: steps, fraction: fraction, seconds: seconds, limitSeconds: limitSeconds))
        }
    }

    /// Moves the transfer in its data phase as `move` says: the event it reached or the
    /// abandonment check it stopped at, `nil` after a stretch that ends before its next event.
    func stepShared(_ move: LinkShareMove) throws(EmulationError) -> SharedStep? {
        try perform(StepShared(move: move))
    }
}

/// One operation on the stepper of a player on a shared link, written once for both models that
/// can share one: ``StepperOperation``'s kind for ``SharedLinkModel``.
private protocol SharedLinkOperation {
    associatedtype Result
    associatedtype Failure: Error = Never
    func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(Failure) -> Result
}

private struct Finished: SharedLinkOperation {
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> SessionResult {
        stepper.pointee.engine.result
    }
}

private struct SetUp: SharedLinkOperation {
    let strategy: UnsafeMutablePointer<OpenedStrategy>
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) {
        try stepper.pointee.engine.setUp(&strategy.pointee)
    }
}

private struct Play: SharedLinkOperation {
    let strategy: UnsafeMutablePointer<OpenedStrategy>
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) -> PlayStop {
        try stepper.pointee.play(&strategy.pointee)
    }
}

private struct Answer: SharedLinkOperation {
    let progress: DownloadProgress
    let strategy: UnsafeMutablePointer<OpenedStrategy>
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) {
        try stepper.pointee.engine.answer(progress, with: &strategy.pointee, context: stepper.pointee.context)
    }
}

private struct JoinLink: SharedLinkOperation {
    let seconds: Double
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) {
        try stepper.pointee.engine.joinLink(atSeconds: seconds)
    }
}

private struct PlanShared: SharedLinkOperation {
    let seconds: Double
    let fraction: Double
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> SharedPlan {
        stepper.pointee.engine.model.planShared(fromSeconds: seconds, fraction: fraction)
    }
}

private struct WalkSharedQuietly: SharedLinkOperation {
    let steps: Int
    let fraction: Double
    let seconds: UnsafeMutablePointer<Double>
    let limitSeconds: Double
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) -> Int {
        stepper.pointee.engine.model.walkSharedQuietly(steps, fraction: fraction, seconds: &seconds.pointee, through: limitSeconds)
    }
}

private struct StepShared: SharedLinkOperation {
    let move: LinkShareMove
    @inline(__always) func callAsFunction<Model: SharedLinkModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(EmulationError) -> SharedStep? {
        try stepper.pointee.engine.stepShared(move)
    }
}

extension SessionSetup {
    /// A session of this setup for a player of a shared link, `nil` where the profile's player
    /// model cannot share one (``LinkGroup/refusal(for:)``).
    func sharedLinkSession() -> SharedLinkSession? {
        SharedLinkSession(storage())
    }
}
