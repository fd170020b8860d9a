/// What a live segment's row adds: where the player stood when the segment's last chunk arrived.
public struct LiveSegmentStats: Equatable, Sendable {
    /// Live latency (live edge − playhead) when the last chunk arrived.
    public var latencySeconds: Double
    /// The playback rate in force after the last chunk arrived.
    public var playbackRate: Double
    /// Media time of the playhead then.
    public var playheadSeconds: Double
    /// Time the download spent waiting for the encoder to produce chunks.
    public var productionWaitSeconds: Double
    /// Whether the player then seeked to the live edge (latency past dash.js's `maxDrift`);
    /// the segments it skipped have no rows.
    public var seekedToLive: Bool

    public init(
        latencySeconds: Double, playbackRate: Double, playheadSeconds: Double, productionWaitSeconds: Double, seekedToLive: Bool = false
    ) {
        self.latencySeconds = latencySeconds
        self.playbackRate = playbackRate
        self.playheadSeconds = playheadSeconds
        self.productionWaitSeconds = productionWaitSeconds
        self.seekedToLive = seekedToLive
    }
}
