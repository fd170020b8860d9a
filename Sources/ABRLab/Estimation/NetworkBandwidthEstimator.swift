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
    // Plain numbers (bits/s and seconds since the reference date) in one struct, mutated in one
    // access per call, keep the per-segment cost in emulation low; `samples` presents them as
    // the seed's type.
    private var store: SampleStore

    /// The kept samples, oldest first.
    public var samples: [BandwidthSample] {
        zip(store.bandwidths, store.timestamps).map {
            BandwidthSample(bandwidth: $0, timestamp: Date(timeIntervalSinceReferenceDate: $1))
        }
    }

    public init(
        maxSamples: Int = 10,
        sampleWindow: TimeInterval = 30,
        timeSource: any TimeSource = SystemTimeSource()
    ) {
        self.maxSamples = max(0, maxSamples)
        self.sampleWindow = sampleWindow
        self.timeSource = timeSource
        store = SampleStore(capacity: self.maxSamples + 1)
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
        let seconds = timestamp.timeIntervalSinceReferenceDate
        store.append(bandwidth: Double(bytes) * 8 / duration, at: seconds)
        store.trim(cutoff: seconds - sampleWindow, maxSamples: maxSamples)
    }

    /// The weighted mean of the kept samples in bits per second, 0 when none are kept.
    public func estimatedBandwidth() -> Double {
        estimatedBandwidth(at: timeSource.now())
    }

    /// The estimate as seen at an explicit time.
    public func estimatedBandwidth(at now: Date) -> Double {
        store.trim(cutoff: now.timeIntervalSinceReferenceDate - sampleWindow, maxSamples: maxSamples)
        return store.weightedMean()
    }

    /// The estimate classified by the seed's thresholds.
    public func networkQuality() -> NetworkQuality {
        NetworkQuality(bitsPerSecond: estimatedBandwidth())
    }

    /// The classification as seen at an explicit time.
    public func networkQuality(at now: Date) -> NetworkQuality {
        NetworkQuality(bitsPerSecond: estimatedBandwidth(at: now))
    }
}

/// The estimator's samples as parallel arrays, oldest first.
private struct SampleStore {
    var bandwidths: [Double] = []
    var timestamps: [Double] = []

    init(capacity: Int) {
        bandwidths.reserveCapacity(capacity)
        timestamps.reserveCapacity(capacity)
    }

    mutating func append(bandwidth: Double, at seconds: Double) {
        bandwidths.append(bandwidth)
        timestamps.append(seconds)
    }

    /// Keeps samples strictly newer than `cutoff`, then the newest `maxSamples`.
    mutating func trim(cutoff: Double, maxSamples: Int) {
        var kept = 0
        for index in timestamps.indices where timestamps[index] > cutoff {
            timestamps[kept] = timestamps[index]
            bandwidths[kept] = bandwidths[index]
            kept += 1
        }
        let first = max(0, kept - maxSamples)
        guard first > 0 || kept < timestamps.count else { return }
        for index in 0..<(kept - first) {
            timestamps[index] = timestamps[first + index]
            bandwidths[index] = bandwidths[first + index]
        }
        timestamps.removeLast(timestamps.count - (kept - first))
        bandwidths.removeLast(bandwidths.count - (kept - first))
    }

    /// The seed's weighting: the i-th sample (oldest first) weighs i + 1; 0 without samples.
    func weightedMean() -> Double {
        guard !bandwidths.isEmpty else { return 0 }
        var weightedSum = 0.0
        var totalWeight = 0.0
        for (index, bandwidth) in bandwidths.enumerated() {
            let weight = Double(index + 1)
            weightedSum += bandwidth * weight
            totalWeight += weight
        }
        return weightedSum / totalWeight
    }
}
