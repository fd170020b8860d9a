import ABRLab

/// A comparison's ranked table: the strategies that finished every session ranked on the
/// traces they all finished, then the strategies with failed sessions, never ranked, each
/// summarised on the traces it finished itself.
public struct Ranking: Sendable {
    public let rankBy: RankMetric
    /// Traces in the run.
    public let traceCount: Int
    /// Traces every complete strategy finished: the statistics of every ranked summary cover
    /// exactly these (0 when no strategy is complete).
    public let comparedTraceCount: Int
    /// Strategies that finished every session, best first; equal scores share a rank and are
    /// listed by id.
    public let ranked: [StrategySummary]
    /// Strategies with failed sessions, fewest failures first (then by score and id); unranked,
    /// their statistics on their own finished traces.
    public let incomplete: [StrategySummary]
    public let baselineID: String?
    /// Every other strategy against the baseline, in table order.
    public let comparisons: [PairedComparison]
    /// Each strategy's groups summarised, when players shared links.
    public var groupSummaries: [String: GroupSummary]?

    /// Scores this close (relative to their size) are equal: ties come from identical sessions,
    /// whose means can differ in the last bits only by summation order.
    public static let tieTolerance = 1e-9

    public init(
        summaries: [StrategySummary], rankBy: RankMetric, traceCount: Int, comparedTraceCount: Int,
        baselineID: String?, comparisons: [PairedComparison]
    ) {
        self.rankBy = rankBy
        self.traceCount = traceCount
        self.comparedTraceCount = comparedTraceCount
        self.baselineID = baselineID
        func score(_ summary: StrategySummary) -> Double {
            let value = rankBy.value(of: summary)
            return value.isNaN ? -.infinity : value
        }
        func better(_ lhs: StrategySummary, _ rhs: StrategySummary) -> Bool {
            let (left, right) = (score(lhs), score(rhs))
            return Self.equal(left, right) ? lhs.strategyID < rhs.strategyID : left > right
        }
        var ranked = summaries.filter(\.isComplete).sorted(by: better)
        var leader = 0
        for index in ranked.indices {
            if index > 0, !Self.equal(score(ranked[leader]), score(ranked[index])) { leader = index }
            ranked[index].rank = leader + 1
        }
        self.ranked = ranked
        incomplete = summaries.filter { !$0.isComplete }.map { summary in
            var unranked = summary
            unranked.rank = nil
            return unranked
        }.sorted { lhs, rhs in lhs.failures != rhs.failures ? lhs.failures < rhs.failures : better(lhs, rhs) }
        // Positions looked up, not searched: a parameter grid can make a hundred thousand rows.
        let order = Dictionary((self.ranked + incomplete).enumerated().map { ($1.strategyID, $0) }) { first, _ in first }
        self.comparisons = comparisons.sorted { lhs, rhs in
            (order[lhs.strategyID] ?? order.count) < (order[rhs.strategyID] ?? order.count)
        }
    }

    /// Every strategy in table order: ranked ones, then incomplete ones.
    public var summaries: [StrategySummary] { ranked + incomplete }

    public func comparison(for strategyID: String) -> PairedComparison? {
        comparisons.first { $0.strategyID == strategyID }
    }

    static func equal(_ lhs: Double, _ rhs: Double) -> Bool {
        lhs == rhs || abs(lhs - rhs) <= tieTolerance * max(1, abs(lhs), abs(rhs))
    }
}
