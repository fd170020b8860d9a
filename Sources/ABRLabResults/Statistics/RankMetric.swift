import ABRLab

/// The session-QoE statistic strategies are ranked by.
public enum RankMetric: String, CaseIterable, Sendable {
    /// Mean session QoE (sum of per-segment scores), the usual headline number.
    case mean
    /// Median session QoE: robust when a few traces dominate the mean.
    case median

    /// The statistic of `summary` this metric ranks by.
    public func value(of summary: StrategySummary) -> Double {
        switch self {
        case .mean: summary.qoeTotalMean
        case .median: summary.qoeTotalMedian
        }
    }
}
