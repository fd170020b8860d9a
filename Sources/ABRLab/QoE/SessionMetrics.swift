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

    /// Metrics from scores already computed with `qoe.segmentScores(result, ladder:)`. A live
    /// warm-up's rows, chunks, stalls and start-up count in none of them.
    public init(result: SessionResult, qoe: QoEModel, ladder: [BitrateLevel], segmentScores scores: [Double]) {
        let rows = result.scoredSegments
        let skipped = rows.startIndex
        segments = rows.count
        qoeTotal = qoe.sessionScore(result, ladder: ladder, segmentScores: skipped == 0 ? scores : Array(scores.dropFirst(skipped)))
        playback = result.playback
        timeAverageScore = result.playback?.timeAverageScore(gammaP: qoe.gammaP)
        qoeMean = segments > 0 ? qoeTotal / Double(segments) : 0
        averageBitrateKbps = segments > 0
            ? rows.reduce(0) { $0 + $1.bitrateKbps } / Double(segments) : 0
        rebufferSeconds = rows.reduce(0) { $0 + $1.rebufferSeconds }
        let playedSeconds = Double(segments) * result.segmentDurationSeconds
        rebufferRatio = rebufferSeconds + playedSeconds > 0 ? rebufferSeconds / (rebufferSeconds + playedSeconds) : 0
        stallCount = result.stallCount - (result.warmup?.stallCount ?? 0)
        // A switch into the first scored row from the warm-up's last one happens in the pattern.
        let compared = result.segments[max(skipped - 1, 0)...]
        switchCount = zip(compared, compared.dropFirst()).reduce(0) { $0 + ($1.0.level != $1.1.level ? 1 : 0) }
        startupSeconds = result.warmup.map { max(0, result.startupSeconds - $0.seconds) } ?? result.startupSeconds
        let chunks = result.scoredLiveChunks
        if !chunks.isEmpty {
            let count = Double(chunks.count)
            liveLatencySeconds = chunks.reduce(0) { $0 + $1.latencySeconds } / count
            playbackRateDeviation = chunks.reduce(0) { $0 + abs(1 - $1.playbackRate) } / count
        }
    }
}
