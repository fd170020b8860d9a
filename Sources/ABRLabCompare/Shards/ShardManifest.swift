import ABRLab

/// The `shard` entry of a shard's `run.json`: which part of the plan it holds and what `merge`
/// needs to check it and put the parts back together.
public struct ShardManifest: Codable, Equatable {
    public struct File: Codable, Equatable {
        let bytes: UInt64
        let crc32: UInt32

        enum CodingKeys: String, CodingKey { case bytes, crc32 }
    }

    public let index: Int
    public let count: Int
    /// Traces of the plan (in run order) this shard ran: `first_trace ..< first_trace + traces`.
    public let firstTrace: Int
    public let traces: Int
    /// Sessions of the whole plan and of this shard.
    public let totalSessions: Int
    public let sessions: Int
    /// Row ids in run order, the baseline, the seed and the ranking metric: what the merged
    /// summary needs.
    public let strategies: [String]
    public let baseline: String?
    public let seed: UInt64
    public let rankBy: String
    /// Every data file's size and CRC-32, so a damaged or changed file is caught.
    public let files: [String: File]

    enum CodingKeys: String, CodingKey {
        case index, count, firstTrace = "first_trace", traces, totalSessions = "total_sessions", sessions, strategies, baseline, seed
        case rankBy = "rank_by", files
    }
}
