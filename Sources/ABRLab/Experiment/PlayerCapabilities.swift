/// What a player model does beyond ``PlayerModel``, each a protocol of its own that only the
/// models that do it conform to: ``WaitsForRoom``, ``ChecksAbandonment``, ``PlaysLive``.
///
/// The engine is generic over its model, so it reaches a capability through a cast of the model's
/// type. For a model that has it the cast folds away where the engine is specialised; for one
/// that lacks it the cast is a run-time look-up, so it is made once, when the engine is built, and
/// kept here: a step of such a model costs one test of a flag.
struct PlayerCapabilities: Sendable {
    let waitsForRoom: Bool
    let checksAbandonment: Bool
    let playsLive: Bool

    init<Model: PlayerModel>(_: Model.Type) {
        waitsForRoom = Model.self is any WaitsForRoom.Type
        checksAbandonment = Model.self is any ChecksAbandonment.Type
        playsLive = Model.self is any PlaysLive.Type
    }
}

/// A model that waits, before a request, for room in a full buffer: ``SegmentBufferModel``.
protocol WaitsForRoom: PlayerModel {
    /// Waits for room for the next segment; returns the wait in milliseconds, 0 when none was
    /// needed.
    mutating func waitForRoom(_ recorder: inout SessionRecorder) throws(EmulationError) -> Double
}

/// A model whose requests stop at abandonment checks (``PlayerStep/check(_:)``), each waiting for
/// an answer: ``SegmentBufferModel``.
protocol ChecksAbandonment: PlayerModel {
    /// The answer to the abandonment check the last step stopped at (checked by the engine).
    mutating func answer(_ answer: AbandonmentAnswer)
}

/// A model of a live stream: ``LiveStreamModel``. It may seek to the live edge, shows its live
/// state to a strategy, and plays at a rate a strategy may set, at a decision or at playback
/// updates (``PlayerStep/playback(_:)``).
protocol PlaysLive: PlayerModel {
    /// The segment to request after `segment` was delivered: the one the player landed in.
    func segment(after segment: Int) -> Int
    /// Adds the live state to a strategy's context.
    func decorate(_ context: inout DecisionContext)
    /// Makes the model stop at playback updates.
    mutating func enablePlaybackUpdates()
    /// A rate a strategy set at a playback update (checked by the engine).
    mutating func setPlaybackRate(_ rate: Double)
    /// A strategy's catch-up seeks to the live edge: done when the segment under way has arrived.
    mutating func seekToLive()
}

// Each capability's members as the engine calls them: on the model at a pointer, from a cast of
// the model's type, which opens the protocol. None throws: Swift 6.3's optimiser crashes
// replacing an opened protocol in a throwing call (SILCombine on a `try_apply`), so the one
// member that throws is reached as a `Result`, from a function never inlined into the engine.

extension WaitsForRoom {
    @inline(never)
    static func waitForRoom(_ model: UnsafeMutableRawPointer, _ recorder: inout SessionRecorder) -> Result<Double, EmulationError> {
        Result { () throws(EmulationError) in try model.assumingMemoryBound(to: Self.self).pointee.waitForRoom(&recorder) }
    }
}

extension ChecksAbandonment {
    @inline(__always)
    static func answer(_ model: UnsafeMutableRawPointer, _ answer: AbandonmentAnswer) {
        model.assumingMemoryBound(to: Self.self).pointee.answer(answer)
    }
}

extension PlaysLive {
    @inline(__always)
    static func segment(_ model: UnsafeRawPointer, after segment: Int) -> Int {
        model.assumingMemoryBound(to: Self.self).pointee.segment(after: segment)
    }

    @inline(__always)
    static func decorate(_ model: UnsafeRawPointer, _ context: inout DecisionContext) {
        model.assumingMemoryBound(to: Self.self).pointee.decorate(&context)
    }

    @inline(__always)
    static func enablePlaybackUpdates(_ model: UnsafeMutableRawPointer) {
        model.assumingMemoryBound(to: Self.self).pointee.enablePlaybackUpdates()
    }

    @inline(__always)
    static func setPlaybackRate(_ model: UnsafeMutableRawPointer, _ rate: Double) {
        model.assumingMemoryBound(to: Self.self).pointee.setPlaybackRate(rate)
    }

    @inline(__always)
    static func seekToLive(_ model: UnsafeMutableRawPointer) {
        model.assumingMemoryBound(to: Self.self).pointee.seekToLive()
    }
}
