import Foundation
import Synchronization

/// The worker threads an environment's sessions step on. A call splits the sessions into parts
/// and returns when every part is done. Where no session runs Lua (`sessionsMove`), the parts
/// are a few sessions each and every thread, the caller's included, takes the next part no one
/// has taken, so a thread the system runs late, or a part slowed by a session's reset, holds up
/// no one. Where a session runs a Lua strategy (an expert), which stays on the thread that set
/// it up, part `w` is worker `w`'s share of the sessions and the caller waits.
///
/// A step of 64 sessions is tens of microseconds, about what waking a sleeping thread costs, so
/// a worker spins for the next call for ``spinNanoseconds`` before it sleeps, and the caller
/// spins for the parts' end as long: between the steps of a training loop the workers are ready,
/// and a loop that pauses longer (a policy update) finds them asleep, not burning a core.
final class EnvWorkers: Sendable {
    /// The threads that step sessions.
    let count: Int
    private let sessionsMove: Bool
    /// The process that started the threads: a child forked from it has none of them.
    private let process = getpid()
    /// How long a thread spins for what it waits for before it sleeps.
    static let spinNanoseconds: UInt64 = 200_000
    /// Sessions in a part that any thread may take.
    static let partSessions = 4
    /// The call under way and its parts, packed so one atomic read gives all three: the call's
    /// number (a worker runs each call once), its parts, and the next part not yet taken.
    private let claims = Atomic<Int>(0)
    /// Parts of the call under way that are done.
    private let completed = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Threads asleep on `condition` (workers for a call, the caller for its end).
    private let sleepers = Atomic<Int>(0)
    private let condition = NSCondition()
    // Sound: the three below are written by the caller before it publishes a call in `claims`,
    // read by a thread only while it holds a part of that call, which the caller waits for; the
    // calls themselves come one at a time (the environment's lock). Every atomic access is
    // sequentially consistent: the sleepers' handshake needs it, and on x86 a load costs no more.
    private nonisolated(unsafe) var job: ((_ part: Int, _ sessions: Range<Int>) -> Void)?
    private nonisolated(unsafe) var sessions = 0
    private nonisolated(unsafe) var calls = 0

    init(count: Int, sessionsMove: Bool) {
        self.count = count
        self.sessionsMove = sessionsMove
        for worker in (sessionsMove ? 1 : 0)..<count {
            let thread = Thread { [self] in loop(worker) }
            thread.name = "abrlab-env-\(worker)"
            thread.start()
        }
    }

    /// How many parts a call over `sessions` sessions has.
    func parts(of sessions: Int) -> Int {
        sessionsMove ? (sessions + Self.partSessions - 1) / Self.partSessions : count
    }

    /// The sessions of part `part` of `sessions`.
    func range(of part: Int, sessions: Int) -> Range<Int> {
        if sessionsMove { return (part * Self.partSessions)..<min((part + 1) * Self.partSessions, sessions) }
        return (sessions * part / count)..<(sessions * (part + 1) / count)
    }

    /// Runs `body(part, sessions)` for every part of `sessions` sessions at once; returns when
    /// every one has returned. In a process forked after the threads started, the caller runs
    /// every part itself.
    func run(sessions: Int, _ body: (_ part: Int, _ sessions: Range<Int>) -> Void) {
        let parts = parts(of: sessions)
        guard getpid() == process else {
            for part in 0..<parts { body(part, range(of: part, sessions: sessions)) }
            return
        }
        withoutActuallyEscaping(body) { body in
            job = body
            self.sessions = sessions
            // Numbered within the bits `Claims` gives them, never 0 (a worker has seen call 0).
            calls = calls % Claims.callLimit + 1
            completed.store(0, ordering: .sequentiallyConsistent)
            let call = Claims(call: calls, parts: parts, next: 0)
            claims.store(call.packed, ordering: .sequentiallyConsistent)
            wakeSleepers()
            if sessionsMove {
                while let part = claim(in: call.call) { runPart(part, of: parts) }
            }
            wait { completed.load(ordering: .sequentiallyConsistent) == parts }
            job = nil
        }
    }

    /// Ends the threads once they finish the call in progress (none is: the environment's lock
    /// holds calls out while it closes).
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wakeSleepers()
    }

    private func loop(_ worker: Int) {
        var seen = 0
        while true {
            wait { Claims(claims.load(ordering: .sequentiallyConsistent)).call != seen || stopping.load(ordering: .sequentiallyConsistent) }
            if stopping.load(ordering: .sequentiallyConsistent) { return }
            let call = Claims(claims.load(ordering: .sequentiallyConsistent))
            seen = call.call
            if sessionsMove {
                while let part = claim(in: call.call) { runPart(part, of: call.parts) }
            } else {
                runPart(worker, of: call.parts)
            }
        }
    }

    /// The next part of call `call` no thread has taken, taken; nil when none is left.
    private func claim(in call: Int) -> Int? {
        var state = claims.load(ordering: .sequentiallyConsistent)
        while true {
            let claims = Claims(state)
            guard claims.call == call, claims.next < claims.parts else { return nil }
            let (exchanged, original) = self.claims.compareExchange(
                expected: state, desired: Claims(call: call, parts: claims.parts, next: claims.next + 1).packed,
                ordering: .sequentiallyConsistent
            )
            if exchanged { return claims.next }
            state = original
        }
    }

    /// Runs part `part` (taken) and counts it done; the job is let go of before, so the caller,
    /// which waits for the count, ends its borrowed closure with no thread holding it.
    private func runPart(_ part: Int, of parts: Int) {
        callJob(part)
        if completed.add(1, ordering: .sequentiallyConsistent).newValue == parts { wakeSleepers() }
    }

    @inline(never)
    private func callJob(_ part: Int) {
        job!(part, range(of: part, sessions: sessions))
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
            condition.lock()
            // Counted before the last check, so a waker either sees the count or this check sees its change.
            sleepers.add(1, ordering: .sequentiallyConsistent)
            while !done() { condition.wait() }
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
            condition.unlock()
            return
        }
    }

    /// Wakes whoever sleeps in ``wait(until:)``, after a change it may wait for.
    private func wakeSleepers() {
        guard sleepers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}

/// A call's number, its parts and the next part not yet taken, in one word.
private struct Claims {
    var call: Int
    var parts: Int
    var next: Int

    /// Parts and the next part take 20 bits each: a million parts, far more sessions than an
    /// environment has.
    private static let bits = 20
    private static let mask = (1 << bits) - 1
    /// Calls are numbered 1 to this (23 bits), then again from 1: a worker that sleeps through
    /// 8 million calls and wakes at its old number only misses helping with that one.
    static let callLimit = (1 << (63 - 2 * bits)) - 1

    init(call: Int, parts: Int, next: Int) {
        self.call = call
        self.parts = parts
        self.next = next
    }

    init(_ packed: Int) {
        call = packed >> (2 * Self.bits)
        parts = (packed >> Self.bits) & Self.mask
        next = packed & Self.mask
    }

    var packed: Int { (call << (2 * Self.bits)) | (parts << Self.bits) | next }
}
