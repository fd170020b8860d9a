extension SessionMetrics {
    /// Metrics given field by field, e.g. read back from a `sessions.csv` row, whose numbers
    /// parse back to the values written.
    public init(
        segments: Int, qoeTotal: Double, qoeMean: Double, averageBitrateKbps: Double, rebufferSeconds: Double,
        rebufferRatio: Double, stallCount: Int, switchCount: Int, startupSeconds: Double,
        liveLatencySeconds: Double? = nil, playbackRateDeviation: Double? = nil
    ) {
        self.segments = segments
        self.qoeTotal = qoeTotal
        self.qoeMean = qoeMean
        self.averageBitrateKbps = averageBitrateKbps
        self.rebufferSeconds = rebufferSeconds
        self.rebufferRatio = rebufferRatio
        self.stallCount = stallCount
        self.switchCount = switchCount
        self.startupSeconds = startupSeconds
        self.liveLatencySeconds = liveLatencySeconds
        self.playbackRateDeviation = playbackRateDeviation
    }
}
