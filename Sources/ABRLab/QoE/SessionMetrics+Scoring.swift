extension SessionMetrics {
    /// A session scored as every front end scores it (`compare`'s rows, the Python environment's
    /// rewards): each segment by `script` (a QoE script) when there is one, else by `qoe`, and the
    /// session's metrics from those scores, summed under `qoe`.
    public static func scored(
        _ result: SessionResult, qoe: QoEModel, script: (any SegmentQoEModel)?, video: Video, seed: UInt64
    ) throws -> (metrics: SessionMetrics, segmentScores: [Double]) {
        let scores = try script?.segmentScores(result, video: video, seed: seed) ?? qoe.segmentScores(result, ladder: video.ladder)
        return (SessionMetrics(result: result, qoe: qoe, ladder: video.ladder, segmentScores: scores), scores)
    }
}
