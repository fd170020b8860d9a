import Foundation
import Synchronization

/// The library's worker threads: every piece of work spread over threads runs on them, each
/// with a stack deep enough for the Lua interpreter and deeply nested input (8 MiB).
public enum Parallel {
    /// Stack of each worker thread.
    static let stackBytes = 8 << 20

    /// `body(index)` for every index below `count`, on up to `threads` threads at once, returned
    /// in index order. Each worker takes the next index not yet taken, so items of unequal cost
    /// (traces of 100 and of 9000 periods) keep every worker busy to the end. `body` runs
    /// concurrently with itself, so whatever it touches besides its own index must allow that.
    /// With one worker, `body` runs on the calling thread.
    public static func map<T>(_ count: Int, threads: Int, _ body: (Int) -> T) -> [T] {
        let workers = max(1, min(threads, count))
        guard workers > 1 else { return (0..<count).map(body) }
        return withoutActuallyEscaping(body) { body in
            let shared = Slots(count: count, body: body)
            defer { shared.base.deallocate() }
            start(threads: workers) { _ in
                guard let body = shared.body else { return }
                while case let index = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue, index < count {
                    shared.base[index] = body(index)
                }
            }.join()
            // A worker's thread may outlive `join()` by a moment; `body` must not.
            shared.body = nil
            return (0..<count).map { (shared.base + $0).move()! }
        }
    }

    /// Starts `threads` workers, worker `n` running `body(n)`, and returns at once; ``Workers/join()``
    /// waits for them and returns what each returned.
    public static func start<T: Sendable>(threads: Int, _ body: @escaping @Sendable (Int) -> T) -> Workers<T> {
        let workers = Workers<T>(count: max(1, threads))
        for worker in 0..<max(1, threads) {
            let thread = Thread { workers.finish(worker, with: body(worker)) }
            thread.stackSize = stackBytes
            thread.start()
        }
        return workers
    }
}

/// Threads started by ``Parallel/start(threads:_:)``, and what each returned.
public final class Workers<T: Sendable>: Sendable {
    private let results: Monitor<(values: [T?], running: Int)>

    init(count: Int) {
        results = Monitor((values: Array(repeating: nil, count: count), running: count))
    }

    func finish(_ worker: Int, with value: T) {
        results.withLock { results in
            results.values[worker] = value
            results.running -= 1
        }
    }

    /// Waits for every worker to return; their results in worker order.
    @discardableResult
    public func join() -> [T] {
        results.wait { $0.running == 0 ? $0.values.map { $0! } : nil }
    }
}

/// The slots of one ``Parallel/map(_:threads:_:)``, which its workers share.
private final class Slots<T>: @unchecked Sendable {
    // Sound: a slot is written only by the worker that took its index, read and `body` cleared only after `join()`.
    let base: UnsafeMutablePointer<T?>
    var body: ((Int) -> T)?
    let next = Atomic(0)

    init(count: Int, body: @escaping (Int) -> T) {
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
        self.body = body
    }
}
