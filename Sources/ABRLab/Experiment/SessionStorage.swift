/// Where a ``StreamingSession`` keeps its ``SessionStepper``: on the heap, shared by the copies
/// of a session until one of them changes (copy on write), so a session is one reference.
///
/// The base class names the player model, so the session switches once per call to the stepper
/// specialised for that model (``StepperStorage``) and checks uniqueness on one reference. Its
/// state is changed only while one session holds it, hence `@unchecked Sendable`.
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

    /// A storage of its own for a session copied from this one.
    func copy() -> StepperStorage {
        StepperStorage(stepper.pointee)
    }
}

extension SessionStorage {
    /// This storage as the one of `Model`, which it is when `model` is `Model.kind`.
    @inline(__always)
    func stepper<Model: PlayerModel>(_: Model.Type) -> UnsafeMutablePointer<SessionStepper<Model>> {
        unsafeDowncast(self, to: StepperStorage<Model>.self).stepper
    }
}
