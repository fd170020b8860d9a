import ABRLab
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
    // The arithmetic lives in a value that emulated sessions keep themselves; `samples` presents
    // its numbers as the seed's type.
    private var window: BandwidthSampleWindow

    /// The kept samples, oldest first.
    public var samples: [BandwidthSample] {
        zip(window.bandwidths, window.timestamps).map {
            BandwidthSample(bandwidth: $0, timestamp: Date(timeIntervalSinceReferenceDate: $1))
        }
    }

    public init(
        maxSamples: Int = 10,
        sampleWindow: TimeInterval = 30,
        timeSource: any TimeSource = SystemTimeSource()
    ) {
        window = BandwidthSampleWindow(maxSamples: maxSamples, sampleWindow: sampleWindow)
        self.maxSamples = window.maxSamples
        self.sampleWindow = sampleWindow
        self.timeSource = timeSource
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
        window.record(bytes: bytes, durationSeconds: duration, atSeconds: timestamp.timeIntervalSinceReferenceDate)
    }

    /// The weighted mean of the kept samples in bits per second, 0 when none are kept.
    public func estimatedBandwidth() -> Double {
        estimatedBandwidth(at: timeSource.now())
    }

    /// The estimate as seen at an explicit time.
    public func estimatedBandwidth(at now: Date) -> Double {
        window.estimate(atSeconds: now.timeIntervalSinceReferenceDate)
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
