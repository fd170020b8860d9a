/// The state of a live session when one chunk arrived: what NQoE scores per chunk, and what
/// the live columns of the output summarise.
public struct LiveChunkSample: Equatable, Sendable {
    /// 0-based segment and chunk within it.
    public var segmentIndex: Int
    public var chunkIndex: Int
    /// Session time the chunk's last byte arrived.
    public var sessionSeconds: Double
    public var bitrateKbps: Double
    /// Stall time since the previous chunk arrived.
    public var rebufferSeconds: Double
    /// Live latency when the chunk arrived.
    public var latencySeconds: Double
    /// The playback rate in force when the chunk arrived.
    public var playbackRate: Double

    public init(
        segmentIndex: Int, chunkIndex: Int, sessionSeconds: Double, bitrateKbps: Double, rebufferSeconds: Double,
        latencySeconds: Double, playbackRate: Double
    ) {
        self.segmentIndex = segmentIndex
        self.chunkIndex = chunkIndex
        self.sessionSeconds = sessionSeconds
        self.bitrateKbps = bitrateKbps
        self.rebufferSeconds = rebufferSeconds
        self.latencySeconds = latencySeconds
        self.playbackRate = playbackRate
    }
}
