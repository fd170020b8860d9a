import Foundation

/// The worker threads an environment's sessions step on, each session always on the same one:
/// a Lua strategy (an expert) runs on the thread that set it up, and the calls come from
/// whichever Python thread makes them. Worker `w` of `count` owns the sessions
/// `slots * w / count ..< slots * (w + 1) / count`; a call hands every worker its share at once
/// and returns when all are done.
final class EnvWorkers: Sendable {
    let count: Int
    private let condition = NSCondition()
    // Guarded by `condition`'s lock.
    private nonisolated(unsafe) var job: ((Int) -> Void)?
    private nonisolated(unsafe) var generation = 0
    private nonisolated(unsafe) var running = 0
    private nonisolated(unsafe) var stopping = false

    init(count: Int) {
        self.count = count
        for worker in 0..<count {
            let thread = Thread { [self] in loop(worker) }
            thread.name = "abrlab-env-\(worker)"
            thread.start()
        }
    }

    /// Runs `body(worker)` on every worker at once; returns when every one has returned.
    func run(_ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            condition.lock()
            job = body
            generation += 1
            running = count
            condition.broadcast()
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

    /// The sessions worker `worker` owns, of `slots`.
    func range(of worker: Int, slots: Int) -> Range<Int> { (slots * worker / count)..<(slots * (worker + 1) / count) }

    private func loop(_ worker: Int) {
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
            body(worker)
            condition.lock()
            running -= 1
            if running == 0 { condition.broadcast() }
        }
    }
}
