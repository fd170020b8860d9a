/// A session's summary numbers.
public struct SessionMetrics: Equatable, Sendable {
    public var segments: Int
    /// Sum of the per-segment QoE scores.
    public var qoeTotal: Double
    /// `qoeTotal / segments`.
    public var qoeMean: Double
    public var averageBitrateKbps: Double
    public var rebufferSeconds: Double
    /// Rebuffering over rebuffering plus content played.
    public var rebufferRatio: Double
    public var stallCount: Int
    public var switchCount: Int
    public var startupSeconds: Double
    /// What was played, summarised as Sabre prints it.
    public var playback: PlaybackSummary?
    /// Sabre's time-average score with the QoE model's γp.
    public var timeAverageScore: Double?
    /// Mean live latency over the chunks' arrivals, seconds (`live` profile); `nil` otherwise.
    public var liveLatencySeconds: Double?
    /// Mean |1 − playback rate| over the chunks' arrivals (`live` profile); `nil` otherwise.
    public var playbackRateDeviation: Double?

    public init(result: SessionResult, qoe: QoEModel, ladder: [BitrateLevel]) {
        self.init(result: result, qoe: qoe, ladder: ladder, segmentScores: qoe.segmentScores(result, ladder: ladder))
    }

    /// Metrics from scores already computed with `qoe.segmentScores(result, ladder:)`.
    public init(result: SessionResult, qoe: QoEModel, ladder: [BitrateLevel], segmentScores scores: [Double]) {
        segments = result.segments.count
        qoeTotal = qoe.sessionScore(result, ladder: ladder, segmentScores: scores)
        playback = result.playback
        timeAverageScore = result.playback?.timeAverageScore(gammaP: qoe.gammaP)
        qoeMean = segments > 0 ? qoeTotal / Double(segments) : 0
        averageBitrateKbps = segments > 0
            ? result.segments.reduce(0) { $0 + $1.bitrateKbps } / Double(segments) : 0
        rebufferSeconds = result.rebufferSeconds
        let playedSeconds = Double(segments) * result.segmentDurationSeconds
        rebufferRatio = rebufferSeconds + playedSeconds > 0 ? rebufferSeconds / (rebufferSeconds + playedSeconds) : 0
        stallCount = result.stallCount
        switchCount = result.switchCount
        startupSeconds = result.startupSeconds
        if !result.liveChunks.isEmpty {
            let count = Double(result.liveChunks.count)
            liveLatencySeconds = result.liveChunks.reduce(0) { $0 + $1.latencySeconds } / count
            playbackRateDeviation = result.liveChunks.reduce(0) { $0 + abs(1 - $1.playbackRate) } / count
        }
    }
}
