/// Where a ``StreamingSession`` keeps its ``SessionStepper``: on the heap, shared by the copies
/// of a session until one of them changes (copy on write), so a session is one reference.
///
/// The base class names the player model, so an operation switches once on it to run on the
/// stepper specialised for that model (``perform(_:)``), and a session checks uniqueness on one
/// reference. Its state is changed only while one session holds it, hence `@unchecked Sendable`.
class SessionStorage: @unchecked Sendable {
    let model: PlayerModelKind

    fileprivate init(model: PlayerModelKind) {
        self.model = model
    }
}

/// The storage of a session of one player model. The stepper sits behind a pointer of its own:
/// changed through it, in place, it escapes the run-time exclusivity check that a class's stored
/// `var` costs at every access.
final class StepperStorage<Model: PlayerModel>: SessionStorage, @unchecked Sendable {
    // Sound: as its base class's, the stepper is changed only while one session holds the storage.
    let stepper: UnsafeMutablePointer<SessionStepper<Model>>

    init(_ stepper: consuming SessionStepper<Model>) {
        self.stepper = .allocate(capacity: 1)
        self.stepper.initialize(to: stepper)
        super.init(model: Model.kind)
    }

    deinit {
        stepper.deinitialize(count: 1)
        stepper.deallocate()
    }
}

extension SessionStorage {
    /// This storage as the one of `Model`, which it is when `model` is `Model.kind`.
    @inline(__always)
    func stepper<Model: PlayerModel>(_: Model.Type) -> UnsafeMutablePointer<SessionStepper<Model>> {
        unsafeDowncast(self, to: StepperStorage<Model>.self).stepper
    }
}

/// One operation on a session's stepper, written once for every player model: the storage runs
/// it on the stepper of its model (``SessionStorage/perform(_:)``).
protocol StepperOperation {
    associatedtype Result
    associatedtype Failure: Error = Never
    func callAsFunction<Model: PlayerModel>(_ stepper: UnsafeMutablePointer<SessionStepper<Model>>) throws(Failure) -> Result
}

extension SessionStorage {
    /// Runs `operation` on the stepper of this storage's model: the switch on the model that
    /// every operation but ``decide(with:)`` goes through.
    /// Inlined where it is called, so the operation runs specialised for the model, as the batch
    /// path runs, at the cost of a branch. (Called through a table of functions made per model,
    /// or through overrides specialised eagerly, stepping the floor cost 10 to 25 % more.)
    @inline(__always)
    func perform<Operation: StepperOperation>(_ operation: Operation) throws(Operation.Failure) -> Operation.Result {
        switch model {
        case .wholeTransfers: try operation(stepper(WholeTransferModel.self))
        case .segmentBuffer: try operation(stepper(SegmentBufferModel.self))
        case .live: try operation(stepper(LiveStreamModel.self))
        }
    }
}

extension SessionStorage {
    /// Starts the request that `choose` decides on the kept context: the one operation that
    /// takes a closure, so the one beside ``perform(_:)`` with a switch of its own. An operation
    /// can hold a closure only as escaping, which costs an allocation at every decision (the
    /// floor stepped 1.3× the batch path so).
    @inline(__always)
    func decide(with choose: (DecisionContext) throws -> RequestDecision) throws {
        switch model {
        case .wholeTransfers: try stepper(WholeTransferModel.self).pointee.decide(with: choose)
        case .segmentBuffer: try stepper(SegmentBufferModel.self).pointee.decide(with: choose)
        case .live: try stepper(LiveStreamModel.self).pointee.decide(with: choose)
        }
    }
}

extension SessionSetup {
    /// A storage of this session's stepper, of the profile's player model: the one place the
    /// mechanics pick the model, for a stepped session, the batch path and a shared link alike.
    func storage() -> SessionStorage {
        switch profile.mechanics {
        case .wholeTransfers(let settings): StepperStorage(stepper(WholeTransferModel(settings: settings, setup: self)))
        case .segmentBuffer(let settings): StepperStorage(stepper(SegmentBufferModel(settings: settings, setup: self)))
        case .live(let settings): StepperStorage(stepper(LiveStreamModel(settings: settings, setup: self)))
        }
    }

    private func stepper<Model: PlayerModel>(_ model: consuming Model) -> SessionStepper<Model> {
        SessionStepper(engine: SessionEngine(setup: self, model: model))
    }
}
