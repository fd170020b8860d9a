import Foundation

/// Runs an experiment's sessions on worker threads and hands their outputs to one consumer in
/// the plan's fixed order, so what is written never depends on the number of workers.
///
/// Workers also turn each outcome into its output (e.g. CSV bytes), keeping the ordered
/// consumer cheap. At most `window` outputs wait to be consumed, so memory stays flat however
/// many sessions run.
public struct ExperimentRunner: Sendable {
    public var jobs: Int
    public var window: Int

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, window: Int? = nil) {
        self.jobs = max(1, jobs)
        self.window = max(1, window ?? 16 * max(1, jobs))
    }

    /// Runs the sessions of `plan` whose indices are in `sessions` (all by default); `prepare`
    /// runs on the workers, `consume` on the calling thread in session order. An error from
    /// `consume` stops the run and is rethrown; settings the plan's profile cannot play are
    /// refused (``SessionEmulator/settingsRefusal``) before any session runs.
    public func run<Output: Sendable>(
        _ plan: ExperimentPlan,
        sessions: Range<Int>? = nil,
        prepare: @escaping @Sendable (SessionOutcome) -> Output,
        consume: (Output) throws -> Void
    ) throws {
        if let refusal = plan.emulator.settingsRefusal { throw refusal }
        let range = sessions ?? 0..<plan.sessionCount
        let first = range.lowerBound
        try run(count: range.count, produce: { prepare(plan.runSession(index: first + $0)) }, consume: consume)
    }

    /// Runs the groups of `plan` (``ExperimentPlan/grouping``) whose indices are in `groups`, a
    /// whole group on one worker; `prepare` runs on the workers, `consume` on the calling thread
    /// in group order; settings are refused as for sessions.
    public func run<Output: Sendable>(
        _ plan: ExperimentPlan,
        groups: Range<Int>,
        prepare: @escaping @Sendable (GroupOutcome) -> Output,
        consume: (Output) throws -> Void
    ) throws {
        if let refusal = plan.emulator.settingsRefusal { throw refusal }
        let first = groups.lowerBound
        try run(count: groups.count, produce: { prepare(plan.runGroup(index: first + $0)) }, consume: consume)
    }

    /// Produces outputs `0..<total` on the workers and consumes them in order.
    private func run<Output: Sendable>(
        count total: Int, produce: @escaping @Sendable (Int) -> Output, consume: (Output) throws -> Void
    ) throws {
        let queue = OrderedResults<Output>(window: window)
        let workers = Parallel.start(threads: min(jobs, max(1, total))) { _ in
            while let index = queue.claim(total: total) {
                queue.deliver(produce(index), at: index)
            }
        }
        defer { workers.join() }
        for index in 0..<total {
            let output = queue.take(index)
            do { try consume(output) } catch {
                queue.cancel()
                throw error
            }
        }
    }
}

/// The hand-over between workers and the consumer.
private final class OrderedResults<Output: Sendable>: Sendable {
    private struct State: Sendable {
        var nextToClaim = 0
        var consumed = 0
        var cancelled = false
        var ready: [Int: Output] = [:]
    }

    private let state = Monitor(State())
    private let window: Int

    init(window: Int) { self.window = window }

    /// The next session index to run, or `nil` when all are claimed or the run was cancelled;
    /// waits while `window` outputs wait to be consumed.
    func claim(total: Int) -> Int? {
        state.wait { state -> Int?? in
            guard !state.cancelled, state.nextToClaim < total else { return .some(nil) }
            guard state.nextToClaim - state.consumed < window else { return nil }
            defer { state.nextToClaim += 1 }
            return state.nextToClaim
        }
    }

    func deliver(_ output: Output, at index: Int) {
        state.withLock { $0.ready[index] = output }
    }

    func take(_ index: Int) -> Output {
        state.wait { state in
            guard let output = state.ready.removeValue(forKey: index) else { return nil }
            state.consumed = index + 1
            return output
        }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
    }
}
