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

    @Test func everyIndexRunsOnce() {
        let calls = Mutex([Int](repeating: 0, count: 50))
        _ = Parallel.map(50, threads: 4) { index in calls.withLock { $0[index] += 1 } }
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: 50))
    }
}
