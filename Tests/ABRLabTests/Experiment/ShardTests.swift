import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ShardTests {
    @Test(arguments: [
        ([1, 1, 1, 1, 1, 1, 1], 3, [0..<2, 2..<5, 5..<7]),
        ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 7, [0..<1, 1..<3, 3..<4, 4..<6, 6..<7, 7..<9, 9..<10]),
        ([10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2, [0..<1, 1..<11]),
        ([4, 4], 4, [0..<0, 0..<1, 1..<1, 1..<2]),
        ([3, 3, 3], 1, [0..<3]),
    ] as [([Int], Int, [Range<Int>])])
    func partitionBalancesWeightInContiguousRanges(weights: [Int], count: Int, expected: [Range<Int>]) {
        #expect(Shard.partition(weights: weights, count: count) == expected)
    }

    @Test func partitionCoversEveryItemOnceForAnyCount() {
        let weights = (0..<1000).map { 40 + $0 % 7 }
        for count in 1...12 {
            let ranges = Shard.partition(weights: weights, count: count)
            #expect(ranges.count == count)
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 1000)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            let loads = ranges.map { weights[$0].reduce(0, +) }
            #expect((loads.max() ?? 0) - (loads.min() ?? 0) <= 2 * 46, "within two items of even")
        }
    }

    @Test func parsesKOverN() throws {
        #expect(try Shard(parsing: "2/7") == Shard(index: 2, count: 7))
        #expect(try Shard(parsing: "2/7").description == "2/7")
    }

    @Test(arguments: [
        ("7/7", "shard: shard index 7 is not in 0...6"),
        ("1/0", "shard: the shard count must be from 1 to 100000, not 0"),
        ("0/1000000000000", "shard: the shard count must be from 1 to 100000, not 1000000000000"),
        ("a/b", "shard: 'a/b' is not of the form K/N (K from 0 to N-1)"),
        ("3", "shard: '3' is not of the form K/N (K from 0 to N-1)"),
    ])
    func rejectsBadShards(text: String, message: String) {
        #expect(throws: InputError.self) { try Shard(parsing: text) }
        do { _ = try Shard(parsing: text) } catch { #expect(error.description == message) }
    }
}
