import ABRLab
import Foundation
import Synchronization

/// The worker threads an environment's sessions step on (started as the library starts every
/// worker, ``Parallel/start(threads:_:)``), each session always on the same one:
/// a Lua strategy (an expert) runs on the thread that set it up, and the calls come from
/// whichever Python thread makes them. Share `w` of `count` is the sessions
/// `slots * w / count ..< slots * (w + 1) / count`; a call hands every worker its share at once
/// and returns when all are done. When no session runs Lua (`callerJoins`), the calling thread
/// takes share 0 itself instead of sleeping while a worker does: one thread fewer to wake.
///
/// A step of 64 sessions is tens of microseconds, about what waking a sleeping thread costs, so
/// a worker spins for the next call for ``spinNanoseconds`` before it sleeps, and the caller
/// spins for the workers' end as long: between the steps of a training loop the workers are
/// ready, and a loop that pauses longer (a policy update) finds them asleep, not burning a core.
final class EnvWorkers: Sendable {
    /// The shares the sessions are split into.
    let count: Int
    private let callerJoins: Bool
    /// The process that started the threads: a child forked from it has none of them.
    private let process = getpid()
    /// How long a thread spins for what it waits for before it sleeps.
    static let spinNanoseconds: UInt64 = 200_000
    /// Calls handed out so far; a worker runs the job once per new value.
    private let generation = Atomic<Int>(0)
    /// Shares of the call in progress not yet done.
    private let running = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Threads asleep in `bed` (workers for a call, the caller for their end).
    private let sleepers = Atomic<Int>(0)
    /// Where a thread that has spun long enough sleeps until a change it waits for.
    private let bed = Monitor(())
    // Sound: written by the caller before it publishes a new `generation`, read by a worker after
    // it sees that generation; cleared only once `running` is back to 0. (Every atomic access is
    // sequentially consistent: the sleepers' handshake needs it, and on x86 a load costs no more.)
    private nonisolated(unsafe) var job: ((Int) -> Void)?

    init(count: Int, callerJoins: Bool) {
        self.count = count
        self.callerJoins = callerJoins
        let first = callerJoins ? 1 : 0
        guard count > first else { return }
        // Never joined: a worker returns once `stop()` is called, and the environment waits for none.
        _ = Parallel.start(threads: count - first) { [self] worker in
            Thread.current.name = "abrlab-env-\(first + worker)"
            loop(first + worker)
        }
    }

    /// Runs `body(share)` for every share at once; returns when every one has returned. In a
    /// process forked after the threads started, the caller runs every share itself.
    func run(_ body: (Int) -> Void) {
        guard getpid() == process else {
            for share in 0..<count { body(share) }
            return
        }
        withoutActuallyEscaping(body) { body in
            job = body
            running.store(callerJoins ? count - 1 : count, ordering: .sequentiallyConsistent)
            generation.add(1, ordering: .sequentiallyConsistent)
            wakeSleepers()
            if callerJoins { body(0) }
            wait { running.load(ordering: .sequentiallyConsistent) == 0 }
            job = nil
        }
    }

    /// Ends the threads once they finish the call in progress (none is: the environment's lock
    /// holds calls out while it closes).
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wakeSleepers()
    }

    /// The sessions of share `share`, of `slots`.
    func range(of share: Int, slots: Int) -> Range<Int> { (slots * share / count)..<(slots * (share + 1) / count) }

    private func loop(_ share: Int) {
        var seen = 0
        while true {
            wait { generation.load(ordering: .sequentiallyConsistent) != seen || stopping.load(ordering: .sequentiallyConsistent) }
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            seen = generation.load(ordering: .sequentiallyConsistent)
            job!(share)
            if running.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { wakeSleepers() }
        }
    }

    /// Returns once `done()` holds: spinning for a while, then asleep until a thread that may
    /// have made it hold wakes the sleepers.
    private func wait(until done: () -> Bool) {
        let start = DispatchTime.now().uptimeNanoseconds
        var spins = 0
        while !done() {
            spins += 1
            // Yields now and then, so a thread this one waits for gets a busy core sooner.
            guard spins & 63 == 0 else { continue }
            sched_yield()
            guard DispatchTime.now().uptimeNanoseconds - start > Self.spinNanoseconds else { continue }
            // Counted before the checks under the lock, so a waker either sees the count or a check sees its change.
            sleepers.add(1, ordering: .sequentiallyConsistent)
            bed.wait { _ in done() ? () : nil }
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
            return
        }
    }

    /// Wakes whoever sleeps in ``wait(until:)``, after a change it may wait for.
    private func wakeSleepers() {
        guard sleepers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        bed.withLock { _ in }
    }
}
