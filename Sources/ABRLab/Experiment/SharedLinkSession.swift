/// A player's session on a shared link (``LinkGroup``): a stepper of a model that can share one
/// (``SharedLinkModel``) with the operations only such a model has, so no session of another
/// model can be asked for them. Its strategy answers it as the batch path answers one
/// (``SessionEngine/play(_:context:events:)``).
struct SharedLinkSession {
    private let storage: SessionStorage
    private let operations: SharedLinkOperations

    /// The session `storage` holds, `nil` where its player model cannot share a link.
    init?(_ storage: SessionStorage) {
        switch storage.model {
        case .wholeTransfers: operations = SharedLinkOperations(WholeTransferModel.self)
        case .segmentBuffer: operations = SharedLinkOperations(SegmentBufferModel.self)
        case .live: return nil
        }
        self.storage = storage
    }

    /// What the session recorded, once it has finished.
    var result: SessionResult { operations.result(storage) }

    /// Tells `strategy`, fresh for this session, what it learns once.
    func setUp(_ strategy: inout OpenedStrategy) throws(EmulationError) {
        try operations.setUp(storage, &strategy)
    }

    /// Answers every point with `strategy` until the session ends or reaches a network event.
    func play(_ strategy: inout OpenedStrategy) throws(EmulationError) -> PlayStop {
        try operations.play(storage, &strategy)
    }

    /// Answers the abandonment check the session stopped at with `strategy`.
    func answer(_ progress: DownloadProgress, with strategy: inout OpenedStrategy) throws(EmulationError) {
        try operations.answer(storage, progress, &strategy)
    }

    /// Joins the link `seconds` into its trace, before the first step.
    func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        try operations.joinLink(storage, seconds)
    }

    /// The next stop of the transfer in its data phase at `fraction` of the link, from link time
    /// `seconds` (``SharedPlan``).
    func planShared(fromSeconds seconds: Double, fraction: Double) -> SharedPlan {
        operations.planShared(storage, seconds, fraction)
    }

    /// Walks at most `steps` quiet events of the transfer in its data phase at `fraction` of the
    /// link while they fall at or before link time `limitSeconds`; returns how many it walked.
    func walkSharedQuietly(_ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double) -> Int {
        operations.walkSharedQuietly(storage, steps, fraction, &seconds, limitSeconds)
    }

    /// Moves the transfer in its data phase as `move` says: the event it reached or the
    /// abandonment check it stopped at, `nil` after a stretch that ends before its next event.
    func stepShared(_ move: LinkShareMove) throws(EmulationError) -> SharedStep? {
        try operations.stepShared(storage, move)
    }
}

/// The operations of a stepper on a shared link, each a function of the storage specialised for
/// its model: made by ``init(_:)`` where the model is known, they capture nothing.
private struct SharedLinkOperations {
    let result: (SessionStorage) -> SessionResult
    let setUp: (SessionStorage, inout OpenedStrategy) throws(EmulationError) -> Void
    let play: (SessionStorage, inout OpenedStrategy) throws(EmulationError) -> PlayStop
    let answer: (SessionStorage, DownloadProgress, inout OpenedStrategy) throws(EmulationError) -> Void
    let joinLink: (SessionStorage, Double) throws(EmulationError) -> Void
    let planShared: (SessionStorage, Double, Double) -> SharedPlan
    let walkSharedQuietly: (SessionStorage, Int, Double, inout Double, Double) -> Int
    let stepShared: (SessionStorage, LinkShareMove) throws(EmulationError) -> SharedStep?

    @inline(__always)
    init<Model: SharedLinkModel>(_: Model.Type) {
        result = { $0.stepper(Model.self).pointee.engine.result }
        setUp = { storage, strategy throws(EmulationError) in try storage.stepper(Model.self).pointee.setUp(&strategy) }
        play = { storage, strategy throws(EmulationError) in try storage.stepper(Model.self).pointee.play(&strategy) }
        answer = { storage, progress, strategy throws(EmulationError) in
            try storage.stepper(Model.self).pointee.answer(progress, with: &strategy)
        }
        joinLink = { storage, seconds throws(EmulationError) in try storage.stepper(Model.self).pointee.joinLink(atSeconds: seconds) }
        planShared = { storage, seconds, fraction in
            storage.stepper(Model.self).pointee.planShared(fromSeconds: seconds, fraction: fraction)
        }
        walkSharedQuietly = { storage, steps, fraction, seconds, limitSeconds in
            storage.stepper(Model.self).pointee.walkSharedQuietly(steps, fraction: fraction, seconds: &seconds, through: limitSeconds)
        }
        stepShared = { storage, move throws(EmulationError) in try storage.stepper(Model.self).pointee.stepShared(move) }
    }
}

extension SessionSetup {
    /// A session of this setup for a player of a shared link, `nil` where the profile's player
    /// model cannot share one (``LinkGroup/refusal(for:)``).
    func sharedLinkSession() -> SharedLinkSession? {
        SharedLinkSession(storage())
    }
}
