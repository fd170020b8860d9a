/// One (strategy, trace) session of an experiment: its result and scores, or why it failed.
public struct SessionOutcome: Sendable {
    /// Position in the experiment's fixed order (traces major, strategies minor).
    public let index: Int
    public let strategyID: String
    public let traceName: String
    public let seed: UInt64
    public let result: SessionResult?
    public let metrics: SessionMetrics?
    /// Per-segment QoE, aligned with `result.segments`.
    public let segmentScores: [Double]
    /// One-line message when the session failed.
    public let error: String?

    public init(
        index: Int, strategyID: String, traceName: String, seed: UInt64, result: SessionResult?,
        metrics: SessionMetrics?, segmentScores: [Double], error: String?
    ) {
        self.index = index
        self.strategyID = strategyID
        self.traceName = traceName
        self.seed = seed
        self.result = result
        self.metrics = metrics
        self.segmentScores = segmentScores
        self.error = error
    }
}
