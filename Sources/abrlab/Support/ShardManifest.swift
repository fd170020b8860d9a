import ABRLab

/// The `shard` entry of a shard's `run.json`: which part of the plan it holds and what `merge`
/// needs to check it and put the parts back together.
struct ShardManifest: Codable, Equatable {
    struct File: Codable, Equatable {
        let bytes: UInt64
        let crc32: UInt32
    }

    let index: Int
    let count: Int
    /// Traces of the plan (in run order) this shard ran: `firstTrace ..< firstTrace + traces`.
    let firstTrace: Int
    let traces: Int
    /// Sessions of the whole plan and of this shard.
    let totalSessions: Int
    let sessions: Int
    /// Row ids in run order, the baseline, the seed and the ranking metric: what the merged
    /// summary needs.
    let strategies: [String]
    let baseline: String?
    let seed: UInt64
    let rankBy: String
    /// Every data file's size and CRC-32, so a damaged or changed file is caught.
    let files: [String: File]
}
