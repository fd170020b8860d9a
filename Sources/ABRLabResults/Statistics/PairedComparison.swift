import ABRLab

/// A strategy against a baseline, trace by trace, on the traces both finished.
public struct PairedComparison: Equatable, Sendable {
    public var strategyID: String
    public var baselineID: String
    /// Traces both finished: the pairs the counts and the mean cover.
    public var pairs: Int
    public var wins: Int
    public var ties: Int
    public var losses: Int
    /// Mean of (strategy − baseline) session QoE.
    public var meanDifference: Double
    public var interval: Bootstrap.Interval

    /// Differences within `tolerance` count as ties. The bootstrap is seeded from the run's
    /// `seed` alone, so the same differences give the same interval whatever the names.
    public init(
        strategyID: String, baselineID: String, strategyQoE: [String: Double], baselineQoE: [String: Double],
        seed: UInt64, tolerance: Double = 1e-9
    ) {
        self.strategyID = strategyID
        self.baselineID = baselineID
        let differences = strategyQoE.keys.sorted().compactMap { trace in
            baselineQoE[trace].flatMap { base in strategyQoE[trace].map { $0 - base } }
        }
        pairs = differences.count
        wins = differences.filter { $0 > tolerance }.count
        losses = differences.filter { $0 < -tolerance }.count
        ties = differences.count - wins - losses
        meanDifference = differences.isEmpty ? .nan : differences.reduce(0, +) / Double(differences.count)
        interval = Bootstrap.meanInterval(differences, seed: Bootstrap.seed(run: seed, purpose: "paired"))
    }
}
