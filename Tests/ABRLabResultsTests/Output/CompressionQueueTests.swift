import ABRLab
@testable import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct CompressionQueueTests {
    static func blocks(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            (0..<(500 + Int(generator.next() % 3_000))).flatMap { Array("\(index),\($0),\(Double(generator.next() % 10_000) / 3)\n".utf8) }
        }
    }

    /// Blocks come back in the order they were submitted, each the block of its rows alone,
    /// whether helpers compressed them, the taker did, or both raced.
    @Test(arguments: FileCompression.allCases, [0, 1, 3])
    func blocksComeBackInOrderWhoeverCompressesThem(compression: FileCompression, helpers: Int) {
        let blocks = Self.blocks(40, seed: UInt64(helpers + 1))
        let queue = CompressionQueue()
        let tickets = blocks.map { queue.submit($0, as: compression) }
        let group = DispatchGroup()
        for _ in 0..<helpers {
            DispatchQueue.global().async(group: group) { queue.compressWaiting() }
        }
        let taken = tickets.map { queue.take($0) }
        group.wait()
        #expect(taken == blocks.map(compression.block))
        #expect(compression.decompress(taken.flatMap { $0 }) == blocks.flatMap { $0 })
    }

    @Test func aBlockIsDoneOnceAHelperHasCompressedIt() {
        let queue = CompressionQueue()
        let ticket = queue.submit(Array("a,b\n".utf8), as: .zstd)
        #expect(!queue.isDone(ticket))
        queue.compressWaiting()
        #expect(queue.isDone(ticket))
        #expect(queue.take(ticket) == Zstd.frame(Array("a,b\n".utf8)))
    }
}
