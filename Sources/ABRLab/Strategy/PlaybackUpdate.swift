/// Where a live player stands at a playback update: a chunk's arrival, or a tick of one chunk
/// duration of session time while a chunk is on its way (``SessionStrategy/playbackDidUpdate(_:)``).
public struct PlaybackUpdate: Equatable, Sendable {
    /// Session time now.
    public var sessionSeconds: Double
    /// Media buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// Live edge − playhead.
    public var latencySeconds: Double
    public var targetLatencySeconds: Double
    /// The rate in force.
    public var playbackRate: Double
    /// Media time of the playhead.
    public var playheadSeconds: Double
    /// Media time of the end of the newest chunk the encoder has finished.
    public var liveEdgeSeconds: Double
    /// The 0-based segment under way.
    public var segmentIndex: Int
    /// Its chunks arrived so far.
    public var chunksArrived: Int
    /// Whether the player is stalled: its buffer ran empty and no chunk has arrived since.
    public var stalled: Bool

    public init(
        sessionSeconds: Double, bufferSeconds: Double, latencySeconds: Double, targetLatencySeconds: Double, playbackRate: Double,
        playheadSeconds: Double, liveEdgeSeconds: Double, segmentIndex: Int, chunksArrived: Int, stalled: Bool
    ) {
        self.sessionSeconds = sessionSeconds
        self.bufferSeconds = bufferSeconds
        self.latencySeconds = latencySeconds
        self.targetLatencySeconds = targetLatencySeconds
        self.playbackRate = playbackRate
        self.playheadSeconds = playheadSeconds
        self.liveEdgeSeconds = liveEdgeSeconds
        self.segmentIndex = segmentIndex
        self.chunksArrived = chunksArrived
        self.stalled = stalled
    }
}
