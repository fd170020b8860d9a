/// The seed estimator's arithmetic as a value (see ``NetworkBandwidthEstimator``): at most
/// `maxSamples` recent samples, none `sampleWindow` seconds or more before "now", and a mean in
/// which the i-th kept sample (oldest first) weighs i + 1. Bandwidths in bits per second, times
/// in seconds since the session's start.
package struct BandwidthSampleWindow: Sendable {
    package let maxSamples: Int
    let sampleWindow: Double
    package private(set) var bandwidths: [Double] = []
    package private(set) var timestamps: [Double] = []

    package init(maxSamples: Int = 10, sampleWindow: Double = 30) {
        self.maxSamples = max(0, maxSamples)
        self.sampleWindow = sampleWindow
        bandwidths.reserveCapacity(self.maxSamples + 1)
        timestamps.reserveCapacity(self.maxSamples + 1)
    }

    /// Records a transfer of `bytes` that took `durationSeconds`, ending at `seconds`; zero or
    /// negative durations are ignored.
    package mutating func record(bytes: UInt64, durationSeconds: Double, atSeconds seconds: Double) {
        guard durationSeconds > 0 else { return }
        bandwidths.append(Double(bytes) * 8 / durationSeconds)
        timestamps.append(seconds)
        trim(cutoff: seconds - sampleWindow)
    }

    /// The weighted mean of the samples still kept at `seconds`, 0 when none are.
    package mutating func estimate(atSeconds seconds: Double) -> Double {
        trim(cutoff: seconds - sampleWindow)
        return weightedMean()
    }

    /// Keeps samples strictly newer than `cutoff`, then the newest `maxSamples`.
    private mutating func trim(cutoff: Double) {
        let count = timestamps.count
        // Samples come in time order, so the stale ones are a prefix: read to find it, and
        // drop it (or nothing) without rewriting the samples that stay.
        var stale = 0
        while stale < count, !(timestamps[stale] > cutoff) { stale += 1 }
        var suffixKept = true
        for index in stale..<count where !(timestamps[index] > cutoff) {
            suffixKept = false
            break
        }
        if suffixKept {
            let drop = max(stale, count - maxSamples)
            guard drop > 0 else { return }
            timestamps.removeFirst(drop)
            bandwidths.removeFirst(drop)
            return
        }
        var kept = 0
        for index in timestamps.indices where timestamps[index] > cutoff {
            timestamps[kept] = timestamps[index]
            bandwidths[kept] = bandwidths[index]
            kept += 1
        }
        let first = max(0, kept - maxSamples)
        for index in 0..<(kept - first) {
            timestamps[index] = timestamps[first + index]
            bandwidths[index] = bandwidths[first + index]
        }
        timestamps.removeLast(timestamps.count - (kept - first))
        bandwidths.removeLast(bandwidths.count - (kept - first))
    }

    /// The seed's weighting: the i-th sample (oldest first) weighs i + 1; 0 without samples.
    private func weightedMean() -> Double {
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
