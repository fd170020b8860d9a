import ABRLab

/// Percentile bootstrap confidence intervals for a mean.
public enum Bootstrap {
    public struct Interval: Equatable, Sendable {
        public var lower: Double
        public var upper: Double

        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }
    }

    /// The resampling seed for one kind of interval (`"summary"`, `"paired"`) of a run. It
    /// depends on the run's seed only, never on a strategy's id, so identical data gets an
    /// identical interval whatever the strategy is called.
    public static func seed(run: UInt64, purpose: String) -> UInt64 {
        SessionSeed.derive(seed: run, strategyID: "bootstrap", traceName: purpose)
    }

    /// The `confidence` interval of the mean of `values` from `resamples` seeded resamples.
    /// A single value (or none) gives a degenerate interval.
    public static func meanInterval(
        _ values: [Double], confidence: Double = 0.95, resamples: Int = 2000, seed: UInt64
    ) -> Interval {
        guard values.count > 1 else {
            let only = values.first ?? .nan
            return Interval(lower: only, upper: only)
        }
        var generator = SeededGenerator(seed: seed)
        var means = [Double]()
        means.reserveCapacity(resamples)
        let count = values.count
        for _ in 0..<resamples {
            var sum = 0.0
            for _ in 0..<count { sum += values[Int(generator.next() % UInt64(count))] }
            means.append(sum / Double(count))
        }
        means.sort()
        let alpha = (1 - confidence) / 2
        return Interval(lower: quantile(sorted: means, alpha), upper: quantile(sorted: means, 1 - alpha))
    }

    /// Linear-interpolated quantile of sorted values (the same rule as numpy's default).
    public static func quantile(sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let position = q * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        let fraction = position - Double(low)
        return sorted[low] + (sorted[high] - sorted[low]) * fraction
    }
}
