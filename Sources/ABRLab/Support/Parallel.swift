import Synchronization
import Dispatch

/// Work spread over a few threads with each result kept in its place.
public enum Parallel {
    /// `body(index)` for every index below `count`, on up to `threads` threads at once, returned
    /// in index order. Each worker takes the next index not yet taken, so items of unequal cost
    /// (traces of 100 and of 9000 periods) keep every worker busy to the end. `body` runs
    /// concurrently with itself, so whatever it touches besides its own index must allow that.
    public static func map<T>(_ count: Int, threads: Int, _ body: (Int) -> T) -> [T] {
        withoutActuallyEscaping(body) { body in
            let shared = Slots(base: .allocate(capacity: count), body: body)
            shared.base.initialize(repeating: nil, count: count)
            defer { shared.base.deallocate() }
            let workers = max(1, min(threads, count))
            let next = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < count {
                    shared.base[index] = shared.body(index)
                }
            }
            return (0..<count).map { (shared.base + $0).move()! }
        }
    }
}

/// Each slot is written by exactly one worker before `concurrentPerform` returns.
private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T?>
    let body: (Int) -> T
}
