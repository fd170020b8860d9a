import ABRLab

/// An environment as the C interface hands it to Python: a configuration and `slots`
/// sessions (one for `ABR-v0`, `num_envs` for the vector environment), stepped on the caller's
/// thread or, with `threads` above 1, on worker threads of their own. Not thread-safe by
/// itself: ``EnvironmentHandle`` lets one caller in at a time.
final class Environment {
    let configuration: EnvConfiguration
    private(set) var slots: [EnvSlot]
    /// The worker threads the sessions step on; nil to step them on the caller's thread.
    let workers: EnvWorkers?

    init(configuration: EnvConfiguration, slotCount: Int, threads: Int = 1) {
        self.configuration = configuration
        contextLength = EnvFields.contextLength(levels: configuration.levelCount)
        slots = (0..<slotCount).map { EnvSlot(traceCount: configuration.traces.count, seed: UInt64($0)) }
        let threads = min(threads, slotCount)
        // Experts may be Lua strategies, which must stay on one thread: the caller's varies.
        workers = threads > 1 ? EnvWorkers(count: threads, callerJoins: configuration.experts.isEmpty) : nil
    }

    deinit {
        workers?.stop()
    }

    /// The context row's length (``EnvFields/context``).
    let contextLength: Int
    static let stateLength = PensieveState.rows * EnvSlot.stateColumns

    func checkSlot(_ slot: Int) throws(EnvError) {
        guard slot >= 0, slot < slots.count else { throw .invalid("session \(slot) does not exist: the environment has \(slots.count)") }
    }

    /// Restarts slot `slot`'s shuffle of the traces from `seed`.
    func seed(slot: Int, seed: UInt64) throws(EnvError) {
        try checkSlot(slot)
        slots[slot].shuffle = TraceShuffle(count: configuration.traces.count, seed: seed)
    }

    /// Gives `body` the slots in place: a loop over every session pays one access, not one per field.
    func withSlots<Result>(_ body: (inout UnsafeMutableBufferPointer<EnvSlot>) throws(EnvError) -> Result) throws(EnvError) -> Result {
        try slots.withUnsafeMutableBufferPointer { (buffer) throws(EnvError) -> Result in try body(&buffer) }
    }
}
