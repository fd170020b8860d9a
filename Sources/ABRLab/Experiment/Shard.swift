/// One shard of a run split over `count` processes: `index` is 0-based, written `index/count`.
public struct Shard: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Most shards a run may be split into: the partition walks every boundary, so a count of
    /// 10¹² would never finish.
    public static let maximumCount = 100_000

    public init(index: Int, count: Int) throws(InputError) {
        guard count >= 1, count <= Self.maximumCount else {
            throw InputError(setting: .shard, "the shard count must be from 1 to \(Self.maximumCount), not \(count)")
        }
        guard (0..<count).contains(index) else {
            throw InputError(setting: .shard, "shard index \(index) is not in 0...\(count - 1)")
        }
        self.index = index
        self.count = count
    }

    /// Reads `K/N`.
    public init(parsing text: String) throws(InputError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw InputError(setting: .shard, "'\(text)' is not of the form K/N (K from 0 to N-1)")
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Splits items (traces, in run order) into `count` contiguous ranges whose total weights
    /// are as equal as whole items allow: boundary k sits where the running weight comes
    /// closest to k/count of the total (the earlier item on a tie). Ranges may be empty when
    /// there are fewer items than shards. The result depends only on the weights and the count.
    public static func partition(weights: [Int], count: Int) -> [Range<Int>] {
        precondition(count >= 1 && weights.allSatisfy { $0 >= 0 })
        var prefix = [0]
        for weight in weights { prefix.append(prefix[prefix.count - 1] + weight) }
        let total = prefix[prefix.count - 1]
        var bounds = [0]
        for k in 1..<max(count, 1) {
            let target = k * total
            var best = bounds[bounds.count - 1]
            for candidate in best...weights.count {
                if abs(prefix[candidate] * count - target) < abs(prefix[best] * count - target) { best = candidate }
                if prefix[candidate] * count > target { break }
            }
            bounds.append(best)
        }
        bounds.append(weights.count)
        return (0..<count).map { bounds[$0]..<bounds[$0 + 1] }
    }
}
