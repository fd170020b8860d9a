/// Everything one emulated session produced.
public struct SessionResult: Sendable {
    public var traceName: String
    public var profileName: String
    public var segments: [SegmentRecord]
    /// The player state machine's log, stamped in session time.
    public var transitions: [PlaybackTransition]
    /// Time from the first request until playback started.
    public var startupSeconds: Double
    /// Mid-playback stalls (the startup wait is not one).
    public var stallCount: Int
    /// Session time when playback reached the end.
    public var endSeconds: Double
    public var segmentDurationSeconds: Double
    /// What was played, as Sabre summarises a session.
    public var playback: PlaybackSummary?
    /// One sample per chunk on the `live` profile, in arrival order; empty otherwise.
    public var liveChunks: [LiveChunkSample] = []
    /// Duration of one chunk on the `live` profile; `nil` otherwise.
    public var liveChunkSeconds: Double?
    /// The live warm-up's share of the rows, when the session had one; `nil` scores every row.
    public var warmup: WarmupRecord?

    public init(
        traceName: String, profileName: String, segments: [SegmentRecord], transitions: [PlaybackTransition],
        startupSeconds: Double, stallCount: Int, endSeconds: Double, segmentDurationSeconds: Double
    ) {
        self.traceName = traceName
        self.profileName = profileName
        self.segments = segments
        self.transitions = transitions
        self.startupSeconds = startupSeconds
        self.stallCount = stallCount
        self.endSeconds = endSeconds
        self.segmentDurationSeconds = segmentDurationSeconds
    }

    /// Session time of a transition in seconds (its timestamp on the session's clock, which
    /// starts at Foundation's reference date).
    public static func sessionSeconds(of transition: PlaybackTransition) -> Double {
        transition.timestamp.timeIntervalSinceReferenceDate
    }

    /// Rows that count in scores and summaries: all but the warm-up's.
    public var scoredSegments: ArraySlice<SegmentRecord> { segments[min(warmup?.rowCount ?? 0, segments.count)...] }

    /// Chunk samples of the scored rows: those of segments from the first scored row's on.
    public var scoredLiveChunks: ArraySlice<LiveChunkSample> {
        guard warmup != nil else { return liveChunks[...] }
        guard let first = scoredSegments.first else { return [] }
        let start = liveChunks.firstIndex { $0.segmentIndex >= first.index } ?? liveChunks.count
        return liveChunks[start...]
    }

    /// Total rebuffering as the profile counts it.
    public var rebufferSeconds: Double { segments.reduce(0) { $0 + $1.rebufferSeconds } }

    /// Level switches between consecutive segments.
    public var switchCount: Int {
        zip(segments, segments.dropFirst()).reduce(0) { $0 + ($1.0.level != $1.1.level ? 1 : 0) }
    }
}
