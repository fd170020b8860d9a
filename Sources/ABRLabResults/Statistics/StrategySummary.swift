import ABRLab

/// One strategy's results over a trace set.
///
/// The statistics cover the sessions passed in — in a comparison, the traces every complete
/// strategy finished for a complete strategy, so ranked strategies are compared on the same
/// traces, and its own finished traces for one with failed sessions; `sessions` and
/// `failures` count all of the strategy's sessions.
public struct StrategySummary: Equatable, Sendable {
    public var strategyID: String
    /// Sessions that finished, over every trace of the run.
    public var sessions: Int
    /// Sessions that failed.
    public var failures: Int
    /// Sessions the statistics below cover.
    public var comparedSessions: Int
    /// Mean session QoE (each session's sum of per-segment scores).
    public var qoeTotalMean: Double
    /// 95 % percentile-bootstrap interval of `qoeTotalMean`.
    public var qoeTotalInterval: Bootstrap.Interval
    public var qoeTotalMedian: Double
    public var averageBitrateKbps: Double
    public var rebufferRatio: Double
    public var switches: Double
    public var startupSeconds: Double
    /// Mean of the sessions' mean live latency, seconds; `nil` unless every session was live.
    public var liveLatencySeconds: Double?
    /// Mean of the sessions' mean |1 − playback rate|; `nil` unless every session was live.
    public var playbackRateDeviation: Double?
    /// The first failure's message, if any.
    public var firstError: String?
    /// 1-based position among the strategies that completed every session (equal scores share
    /// a rank); `nil` until ranked, and for strategies with failed sessions.
    public var rank: Int?

    /// Whether the strategy finished every session of the run.
    public var isComplete: Bool { failures == 0 }

    /// Summarises `metrics`; `sessions` (default: `metrics.count`) and `failures` count the
    /// strategy's finished and failed sessions over the whole run. The bootstrap is seeded from
    /// the run's `seed` alone, so identical sessions give identical intervals.
    public init(
        strategyID: String, metrics: [SessionMetrics], sessions: Int? = nil, failures: Int, firstError: String?, seed: UInt64
    ) {
        self.strategyID = strategyID
        self.sessions = sessions ?? metrics.count
        self.failures = failures
        self.firstError = firstError
        comparedSessions = metrics.count
        let totals = metrics.map(\.qoeTotal)
        func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
        qoeTotalMean = mean(totals)
        qoeTotalInterval = Bootstrap.meanInterval(totals, seed: Bootstrap.seed(run: seed, purpose: "summary"))
        qoeTotalMedian = Bootstrap.quantile(sorted: totals.sorted(), 0.5)
        averageBitrateKbps = mean(metrics.map(\.averageBitrateKbps))
        rebufferRatio = mean(metrics.map(\.rebufferRatio))
        switches = mean(metrics.map { Double($0.switchCount) })
        startupSeconds = mean(metrics.map(\.startupSeconds))
        let latencies = metrics.compactMap(\.liveLatencySeconds)
        let deviations = metrics.compactMap(\.playbackRateDeviation)
        if !metrics.isEmpty, latencies.count == metrics.count, deviations.count == metrics.count {
            liveLatencySeconds = mean(latencies)
            playbackRateDeviation = mean(deviations)
        }
    }
}
