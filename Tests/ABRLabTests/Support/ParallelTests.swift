import ABRLab
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ParallelTests {
    @Test(arguments: [(0, 2), (1, 4), (7, 2), (100, 3), (5, 1), (3, 8)])
    func resultsComeBackInIndexOrder(count: Int, threads: Int) {
        #expect(Parallel.map(count, threads: threads) { $0 * $0 } == (0..<count).map { $0 * $0 })
    }

    @Test(arguments: [1, 3, 8])
    func startedWorkersJoinWithTheirResultsInWorkerOrder(threads: Int) {
        let workers = Parallel.start(threads: threads) { worker in worker * 10 }
        #expect(workers.join() == (0..<threads).map { $0 * 10 })
        #expect(workers.join() == (0..<threads).map { $0 * 10 }, "joining again gives the same")
    }

    /// Workers run deep recursion (the Lua interpreter, nested input) that a default thread's stack does not hold.
    @Test func workersHaveDeepStacks() {
        let depths = Parallel.map(4, threads: 4) { _ in Self.recurse(10_000) }
        #expect(depths == [10_000, 10_000, 10_000, 10_000])
    }

    @inline(never) static func recurse(_ depth: Int) -> Int {
        var frame = [UInt64](repeating: 0, count: 16)
        frame[depth % 16] = UInt64(depth)
        return depth == 0 ? 0 : 1 + recurse(depth - 1) + Int(frame[depth % 16] - UInt64(depth))
    }

    @Test func everyIndexRunsOnce() {
        let calls = Mutex([Int](repeating: 0, count: 50))
        _ = Parallel.map(50, threads: 4) { index in calls.withLock { $0[index] += 1 } }
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: 50))
    }
}
