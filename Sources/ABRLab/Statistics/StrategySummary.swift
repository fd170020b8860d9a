/// One strategy's results over a trace set.
public struct StrategySummary: Equatable, Sendable {
    public var strategyID: String
    /// Sessions that finished.
    public var sessions: Int
    /// Sessions that failed.
    public var failures: Int
    public var qoeMean: Double
    public var qoeInterval: Bootstrap.Interval
    public var qoeMedian: Double
    public var averageBitrateKbps: Double
    public var rebufferRatio: Double
    public var switches: Double
    public var startupSeconds: Double
    /// The first failure's message, if any.
    public var firstError: String?

    /// Summarises finished sessions' metrics (failed ones count only in `failures`).
    public init(strategyID: String, metrics: [SessionMetrics], failures: Int, firstError: String?, seed: UInt64) {
        self.strategyID = strategyID
        self.sessions = metrics.count
        self.failures = failures
        self.firstError = firstError
        let totals = metrics.map(\.qoeTotal)
        func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
        qoeMean = mean(totals)
        qoeInterval = Bootstrap.meanInterval(totals, seed: SessionSeed.derive(seed: seed, strategyID: strategyID, traceName: "summary"))
        qoeMedian = Bootstrap.quantile(sorted: totals.sorted(), 0.5)
        averageBitrateKbps = mean(metrics.map(\.averageBitrateKbps))
        rebufferRatio = mean(metrics.map(\.rebufferRatio))
        switches = mean(metrics.map { Double($0.switchCount) })
        startupSeconds = mean(metrics.map(\.startupSeconds))
    }
}
