import Foundation

/// The worker threads an environment's sessions step on, each session always on the same one:
/// a Lua strategy (an expert) runs on the thread that set it up, and the calls come from
/// whichever Python thread makes them. Share `w` of `count` is the sessions
/// `slots * w / count ..< slots * (w + 1) / count`; a call hands every worker its share at once
/// and returns when all are done. When no session runs Lua (`callerJoins`), the calling thread
/// takes share 0 itself instead of sleeping while a worker does: one thread fewer to wake.
final class EnvWorkers: Sendable {
    /// The shares the sessions are split into.
    let count: Int
    private let callerJoins: Bool
    private let condition = NSCondition()
    // Guarded by `condition`'s lock.
    private nonisolated(unsafe) var job: ((Int) -> Void)?
    private nonisolated(unsafe) var generation = 0
    private nonisolated(unsafe) var running = 0
    private nonisolated(unsafe) var stopping = false

    init(count: Int, callerJoins: Bool) {
        self.count = count
        self.callerJoins = callerJoins
        for share in (callerJoins ? 1 : 0)..<count {
            let thread = Thread { [self] in loop(share) }
            thread.name = "abrlab-env-\(share)"
            thread.start()
        }
    }

    /// Runs `body(share)` for every share at once; returns when every one has returned.
    func run(_ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            condition.lock()
            job = body
            generation += 1
            running = callerJoins ? count - 1 : count
            condition.broadcast()
            if callerJoins {
                condition.unlock()
                body(0)
                condition.lock()
            }
            while running > 0 { condition.wait() }
            job = nil
            condition.unlock()
        }
    }

    /// Ends the threads once they finish the call in progress (none is: the environment's lock
    /// holds calls out while it closes).
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// The sessions of share `share`, of `slots`.
    func range(of share: Int, slots: Int) -> Range<Int> { (slots * share / count)..<(slots * (share + 1) / count) }

    private func loop(_ share: Int) {
        var seen = 0
        condition.lock()
        while true {
            while generation == seen, !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            seen = generation
            let body = job!
            condition.unlock()
            body(share)
            condition.lock()
            running -= 1
            if running == 0 { condition.broadcast() }
        }
    }
}
