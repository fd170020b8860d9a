/// Collects what the summaries need from each session (a few numbers, never the segments),
/// in strategy order.
public struct ExperimentReport: Sendable {
    public let strategyIDs: [String]
    private var metrics: [String: [SessionMetrics]] = [:]
    private var qoeByTrace: [String: [String: Double]] = [:]
    private var failures: [String: Int] = [:]
    private var firstErrors: [String: String] = [:]

    public init(strategyIDs: [String]) {
        self.strategyIDs = strategyIDs
    }

    public mutating func add(strategyID: String, traceName: String, metrics sessionMetrics: SessionMetrics?, error: String?) {
        if let sessionMetrics {
            metrics[strategyID, default: []].append(sessionMetrics)
            qoeByTrace[strategyID, default: [:]][traceName] = sessionMetrics.qoeTotal
        } else {
            failures[strategyID, default: 0] += 1
            if firstErrors[strategyID] == nil { firstErrors[strategyID] = error ?? "failed" }
        }
    }

    /// Sessions that failed, over all strategies.
    public var failureCount: Int { failures.values.reduce(0, +) }

    public func summaries(seed: UInt64) -> [StrategySummary] {
        strategyIDs.map { id in
            StrategySummary(
                strategyID: id, metrics: metrics[id] ?? [], failures: failures[id] ?? 0,
                firstError: firstErrors[id], seed: seed
            )
        }
    }

    /// Every other strategy against `baselineID`, in strategy order.
    public func comparisons(baselineID: String, seed: UInt64) -> [PairedComparison] {
        let baseline = qoeByTrace[baselineID] ?? [:]
        return strategyIDs.filter { $0 != baselineID }.map { id in
            PairedComparison(
                strategyID: id, baselineID: baselineID, strategyQoE: qoeByTrace[id] ?? [:],
                baselineQoE: baseline, seed: seed
            )
        }
    }
}
