/// How the throughput samples behind `throughputEstimateKbps` (and `DownloadRecord.throughputKbps`)
/// are measured.
public enum ThroughputMethod: String, Equatable, Sendable {
    /// Segment bytes over the whole transfer time (request latency excluded from the estimator's
    /// samples, included in a record's `throughputKbps`): every profile but `live`.
    case segment
    /// dash.js's low-latency calculation for chunked transfer: the mean of per-chunk
    /// throughputs, each chunk's bytes over the time they were arriving, so time spent waiting
    /// for the encoder never counts (`live` profile).
    case chunk
}
