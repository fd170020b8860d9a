import ABRLab

/// Time-weighted bandwidth statistics of one pass through a trace, or of a whole set.
public struct TraceStatistics: Equatable, Sendable {
    public var durationSeconds: Double
    public var periods: Int
    public var meanKbps: Double
    public var p10Kbps: Double
    public var medianKbps: Double
    public var p90Kbps: Double
    /// Time at zero bandwidth.
    public var outageSeconds: Double
    /// Time-weighted mean latency, when the traces record latency.
    public var meanLatencySeconds: Double?

    public init(_ trace: NetworkTrace) {
        self.init(traces: [trace])
    }

    /// Statistics pooled over `traces`, each period weighted by its duration.
    public init(traces: [NetworkTrace]) {
        var samples: [(kbps: Double, seconds: Double)] = []
        var latencyWeighted = 0.0
        var latencySeconds = 0.0
        for trace in traces {
            for (index, period) in trace.periods.enumerated() {
                samples.append((period.bandwidthKbps, period.durationSeconds))
                if let latency = trace.latencySeconds?[index] {
                    latencyWeighted += latency * period.durationSeconds
                    latencySeconds += period.durationSeconds
                }
            }
        }
        let total = samples.reduce(0) { $0 + $1.seconds }
        durationSeconds = total
        periods = samples.count
        meanKbps = total > 0 ? samples.reduce(0) { $0 + $1.kbps * $1.seconds } / total : 0
        outageSeconds = samples.filter { $0.kbps == 0 }.reduce(0) { $0 + $1.seconds }
        meanLatencySeconds = latencySeconds > 0 ? latencyWeighted / latencySeconds : nil
        let sorted = samples.sorted { $0.kbps < $1.kbps }
        func quantile(_ q: Double) -> Double {
            var covered = 0.0
            for sample in sorted {
                covered += sample.seconds
                if covered >= q * total { return sample.kbps }
            }
            return sorted.last?.kbps ?? 0
        }
        p10Kbps = quantile(0.1)
        medianKbps = quantile(0.5)
        p90Kbps = quantile(0.9)
    }
}
