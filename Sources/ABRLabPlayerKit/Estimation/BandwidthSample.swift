import ABRLab
import Foundation

/// One throughput measurement kept by ``NetworkBandwidthEstimator``.
public struct BandwidthSample: Equatable, Sendable {
    /// Bits per second.
    public let bandwidth: Double
    /// When the sample was recorded.
    public let timestamp: Date

    public init(bandwidth: Double, timestamp: Date) {
        self.bandwidth = bandwidth
        self.timestamp = timestamp
    }
}
