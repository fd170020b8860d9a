import Foundation

/// The seed's sample-based throughput estimator.
///
/// It keeps at most `maxSamples` recent samples, drops those recorded `sampleWindow` seconds or
/// more before "now", and reports a weighted mean in which the i-th kept sample (oldest first)
/// weighs i + 1, so newer samples count more. Time comes from an injected ``TimeSource``, so the
/// emulator can run it in simulated time. One estimator belongs to one session.
public final class NetworkBandwidthEstimator {
    public let maxSamples: Int
    /// Seconds a sample stays relevant.
    public let sampleWindow: TimeInterval
    private let timeSource: any TimeSource
    public private(set) var samples: [BandwidthSample] = []

    public init(
        maxSamples: Int = 10,
        sampleWindow: TimeInterval = 30,
        timeSource: any TimeSource = SystemTimeSource()
    ) {
        self.maxSamples = max(0, maxSamples)
        self.sampleWindow = sampleWindow
        self.timeSource = timeSource
        samples.reserveCapacity(self.maxSamples + 1)
    }

    /// Records a transfer of `bytes` that took `duration` seconds; zero or negative durations are ignored.
    public func recordSample(bytes: UInt64, duration: TimeInterval) {
        recordSample(bytes: bytes, duration: duration, at: timeSource.now())
    }

    /// Records a transfer of `bytes` that took `duration`.
    public func recordSample(bytes: UInt64, duration: Duration) {
        recordSample(bytes: bytes, duration: duration.seconds)
    }

    /// Records a transfer stamped with an explicit time instead of the time source's.
    public func recordSample(bytes: UInt64, duration: TimeInterval, at timestamp: Date) {
        guard duration > 0 else { return }
        samples.append(BandwidthSample(bandwidth: Double(bytes) * 8 / duration, timestamp: timestamp))
        trimSamples(now: timestamp)
    }

    /// The weighted mean of the kept samples in bits per second, 0 when none are kept.
    public func estimatedBandwidth() -> Double {
        estimatedBandwidth(at: timeSource.now())
    }

    /// The estimate as seen at an explicit time.
    public func estimatedBandwidth(at now: Date) -> Double {
        trimSamples(now: now)
        guard !samples.isEmpty else { return 0 }
        var weightedSum = 0.0
        var totalWeight = 0.0
        for (index, sample) in samples.enumerated() {
            let weight = Double(index + 1)
            weightedSum += sample.bandwidth * weight
            totalWeight += weight
        }
        return weightedSum / totalWeight
    }

    /// The estimate classified by the seed's thresholds.
    public func networkQuality() -> NetworkQuality {
        NetworkQuality(bitsPerSecond: estimatedBandwidth())
    }

    /// The classification as seen at an explicit time.
    public func networkQuality(at now: Date) -> NetworkQuality {
        NetworkQuality(bitsPerSecond: estimatedBandwidth(at: now))
    }

    /// Keeps samples strictly newer than `now - sampleWindow`, then the newest `maxSamples`.
    private func trimSamples(now: Date) {
        let cutoff = now.addingTimeInterval(-sampleWindow)
        if samples.contains(where: { $0.timestamp <= cutoff }) {
            samples.removeAll { $0.timestamp <= cutoff }
        }
        if samples.count > maxSamples {
            samples.removeFirst(samples.count - maxSamples)
        }
    }
}
