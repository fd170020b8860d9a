/// The live part of a session's state: the encoder's chunk schedule, the player, and what the
/// session records per chunk.
struct LiveSessionState: Sendable {
    let settings: LiveSettings
    let chunksPerSegment: Int
    let chunkSeconds: Double
    let segmentSeconds: Double
    var player: LivePlayer
    var samples: [LiveChunkSample] = []
    /// Chunks of the latest delivered segment.
    var lastChunks: [ChunkRecord] = []
    /// The segment to request next: the following one, or after a seek the one the playhead landed in.
    var nextSegment = 0
    /// Seeks to the live edge so far.
    var seeks = 0
    /// The warm-up's rows and stalls so far, when the session has one.
    var warmup: WarmupRecord?

    init(settings: LiveSettings, segmentSeconds: Double, startupThresholdSeconds: Double, segmentCount: Int) {
        self.settings = settings
        self.segmentSeconds = segmentSeconds
        chunksPerSegment = settings.chunksPerSegment(segmentSeconds: segmentSeconds)
        chunkSeconds = segmentSeconds / Double(chunksPerSegment)
        player = LivePlayer(settings: settings, startupThresholdSeconds: startupThresholdSeconds)
        samples.reserveCapacity(segmentCount * chunksPerSegment)
        warmup = settings.warmup.map { WarmupRecord(seconds: $0.seconds, rowCount: 0, stallCount: 0) }
    }

    /// Media time at which chunk `chunk` of segment `segment` ends (and the encoder finishes it).
    func mediaEnd(segment: Int, chunk: Int) -> Double {
        Double(segment) * segmentSeconds + Double(chunk + 1) * chunkSeconds
    }

    /// Session time from which chunk `chunk` of segment `segment` can be sent: the stream started
    /// one target latency before the player joined.
    func availableAt(segment: Int, chunk: Int) -> Double {
        mediaEnd(segment: segment, chunk: chunk) - settings.targetLatencySeconds
    }

    /// What the strategy sees of the live state now.
    var state: LiveState {
        // A hair of tolerance so a chunk finished exactly now counts despite rounding.
        let edge = (player.liveEdgeSeconds / chunkSeconds + 1e-9).rounded(.down) * chunkSeconds
        return LiveState(
            latencySeconds: player.latencySeconds, targetLatencySeconds: settings.targetLatencySeconds,
            playbackRate: player.rate, liveEdgeSeconds: edge, playheadSeconds: player.playheadSeconds,
            chunkDurationSeconds: chunkSeconds, lastChunks: lastChunks
        )
    }
}
