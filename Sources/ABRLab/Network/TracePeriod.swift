/// A stretch of a network trace with constant bandwidth.
public struct TracePeriod: Equatable, Sendable {
    public var durationSeconds: Double
    public var bandwidthBitsPerSecond: Double
    /// Round-trip request latency during this period, when the trace records one.
    public var latencySeconds: Double?

    public init(durationSeconds: Double, bandwidthBitsPerSecond: Double, latencySeconds: Double? = nil) {
        self.durationSeconds = durationSeconds
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.latencySeconds = latencySeconds
    }

    public var bandwidthKbps: Double { bandwidthBitsPerSecond / 1000 }
}
