/// What a live session adds to a decision's context: where the player stands behind the moving
/// live edge, and the chunks of its latest download.
///
/// Times are session seconds (the session starts at 0 when the player joins); media times are
/// seconds of the stream, which started `targetLatencySeconds` before the player joined, so the
/// player joins exactly at its target latency.
public struct LiveState: Equatable, Sendable {
    /// Live latency now: live edge − playhead, seconds (continuous: the encoder clock, not the
    /// last finished chunk). Stalls and waits raise it, playback faster than 1× lowers it.
    public var latencySeconds: Double
    /// The latency the player aims for (`--target-latency-s`).
    public var targetLatencySeconds: Double
    /// The playback rate in force (1 = real time).
    public var playbackRate: Double
    /// Media time of the end of the newest chunk the encoder has finished.
    public var liveEdgeSeconds: Double
    /// Media time the player is at.
    public var playheadSeconds: Double
    /// Duration of one chunk.
    public var chunkDurationSeconds: Double
    /// Chunks of the latest delivered download, in order; empty before the first. In
    /// `didDownload` these are the chunks of the download it reports.
    public var lastChunks: [ChunkRecord]

    public init(
        latencySeconds: Double, targetLatencySeconds: Double, playbackRate: Double, liveEdgeSeconds: Double,
        playheadSeconds: Double, chunkDurationSeconds: Double, lastChunks: [ChunkRecord] = []
    ) {
        self.latencySeconds = latencySeconds
        self.targetLatencySeconds = targetLatencySeconds
        self.playbackRate = playbackRate
        self.liveEdgeSeconds = liveEdgeSeconds
        self.playheadSeconds = playheadSeconds
        self.chunkDurationSeconds = chunkDurationSeconds
        self.lastChunks = lastChunks
    }
}
