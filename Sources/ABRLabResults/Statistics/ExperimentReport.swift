import ABRLab

/// Collects what the summaries need from each session (a few numbers, never the segments),
/// in strategy order.
public struct ExperimentReport: Sendable {
    public let strategyIDs: [String]
    private var metrics: [String: [String: SessionMetrics]] = [:]
    /// Every trace seen, in the order sessions arrived (the run's trace order).
    private var traceNames: [String] = []
    private var knownTraces: Set<String> = []
    private var failures: [String: Int] = [:]
    private var firstErrors: [String: String] = [:]
    /// Whether players shared links: the ranking then summarises each strategy's groups.
    public var grouped = false
    private var groupMetrics: [String: [GroupMetrics]] = [:]

    public init(strategyIDs: [String]) {
        self.strategyIDs = strategyIDs
    }

    public mutating func add(strategyID: String, traceName: String, metrics sessionMetrics: SessionMetrics?, error: String?) {
        if knownTraces.insert(traceName).inserted { traceNames.append(traceName) }
        if let sessionMetrics {
            metrics[strategyID, default: [:]][traceName] = sessionMetrics
        } else {
            failures[strategyID, default: 0] += 1
            if firstErrors[strategyID] == nil { firstErrors[strategyID] = error ?? "failed" }
        }
    }

    /// The key of a player's metrics when players share links: its trace, and after its first
    /// turn among the players of its strategy in the group, `#turn`.
    public static func playerKey(trace: String, turn: Int) -> String {
        turn == 1 ? trace : "\(trace)#\(turn)"
    }

    /// Adds a group of `groups.csv`: its measures count for each strategy that played in it.
    public mutating func addGroup(label: String, metrics: GroupMetrics) {
        for id in GroupSummary.members(of: label, strategyIDs: Set(strategyIDs)) { groupMetrics[id, default: []].append(metrics) }
    }

    /// Each strategy's groups summarised, when players shared links.
    public var groupSummaries: [String: GroupSummary]? {
        guard grouped else { return nil }
        return Dictionary(uniqueKeysWithValues: strategyIDs.map { ($0, GroupSummary(groupMetrics[$0] ?? [])) })
    }

    /// Sessions that failed, over all strategies.
    public var failureCount: Int { failures.values.reduce(0, +) }

    /// Strategies with no failed session, in strategy order: the ones that are ranked.
    public var completeStrategyIDs: [String] { strategyIDs.filter { failures[$0] == nil } }

    /// Traces every complete strategy finished, in the run's order: the traces the ranked
    /// strategies are compared on. A strategy with failed sessions never shrinks it; with no
    /// complete strategy it is empty.
    public var comparedTraces: [String] {
        let complete = completeStrategyIDs
        guard !complete.isEmpty else { return [] }
        return traceNames.filter { trace in complete.allSatisfy { metrics[$0]?[trace] != nil } }
    }

    /// Each strategy in strategy order: a complete one summarised over ``comparedTraces``, an
    /// incomplete one over the traces it finished itself; on up to `threads` threads, as each
    /// bootstrap is seeded on its own.
    public func summaries(seed: UInt64, threads: Int = 1) -> [StrategySummary] {
        let compared = comparedTraces
        return Parallel.map(strategyIDs.count, threads: threads) { index in
            let id = strategyIDs[index]
            let finished = metrics[id] ?? [:]
            let covered = failures[id] == nil ? compared : traceNames
            return StrategySummary(
                strategyID: id, metrics: covered.compactMap { finished[$0] }, sessions: finished.count,
                failures: failures[id] ?? 0, firstError: firstErrors[id], seed: seed
            )
        }
    }

    /// Every other strategy against `baselineID`, in strategy order, each paired on the traces
    /// both finished; on up to `threads` threads.
    public func comparisons(baselineID: String, seed: UInt64, threads: Int = 1) -> [PairedComparison] {
        let baseline = qoeByTrace(baselineID)
        let others = strategyIDs.filter { $0 != baselineID }
        return Parallel.map(others.count, threads: threads) { index in
            PairedComparison(strategyID: others[index], baselineID: baselineID, strategyQoE: qoeByTrace(others[index]), baselineQoE: baseline, seed: seed)
        }
    }

    /// The ranked table: summaries, ranks and, with a baseline, the paired comparisons. Their
    /// bootstrap intervals are drawn on up to `threads` threads; the table is the same whatever
    /// the number.
    public func ranking(seed: UInt64, rankBy: RankMetric = .mean, baselineID: String? = nil, threads: Int = 1) -> Ranking {
        var ranking = Ranking(
            summaries: summaries(seed: seed, threads: threads), rankBy: rankBy, traceCount: traceNames.count,
            comparedTraceCount: comparedTraces.count, baselineID: baselineID,
            comparisons: baselineID.map { comparisons(baselineID: $0, seed: seed, threads: threads) } ?? []
        )
        ranking.groupSummaries = groupSummaries
        return ranking
    }

    private func qoeByTrace(_ id: String) -> [String: Double] {
        (metrics[id] ?? [:]).mapValues(\.qoeTotal)
    }
}
