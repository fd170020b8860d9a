/// Everything a strategy may look at when it picks the level of the next segment.
///
/// One value is passed per decision. New fields may be added over time; strategies read only
/// what they need, so adding one breaks none of them.
public struct DecisionContext: Sendable {
    /// 0-based index of the segment being chosen.
    public var segmentIndex: Int
    /// Segments the session plays.
    public var segmentCount: Int
    public var segmentDurationSeconds: Double
    /// The ladder, lowest first.
    public var ladder: [BitrateLevel]
    /// Level of the previous segment; `nil` before the first download.
    public var lastLevel: Int?
    /// Buffer after the previous download (and any full-buffer wait).
    public var bufferSeconds: Double
    /// Stall time so far (startup included when the profile counts it).
    public var rebufferSeconds: Double
    /// Mid-playback stalls so far.
    public var stallCount: Int
    /// Time spent in mid-playback stalls so far (the startup wait excluded).
    public var stallSeconds: Double
    /// Session time at which playback started; `nil` while still starting up.
    public var playbackStartSeconds: Double?
    /// Simulated time since the session started.
    public var elapsedSeconds: Double
    /// The seed estimator's estimate (weighted mean of recent downloads), 0 before any.
    public var estimateKbps: Double
    public var networkQuality: NetworkQuality
    /// The trace's path classified by the seed's rules, when the trace describes its path.
    public var pathQuality: NetworkQuality?
    /// Every earlier request of this session, oldest first (abandoned ones included).
    public var downloads: [DownloadRecord]
    /// The profile's throughput estimate (Sabre's: transfer-time weighted EWMA by default, see
    /// ``ThroughputEstimator``); `nil` before the first completed download.
    public var throughputEstimateKbps: Double?
    /// The profile's latency estimate; `nil` before the first completed download.
    public var latencyEstimateSeconds: Double?
    /// Buffer the player holds at most.
    public var maxBufferSeconds: Double
    /// The video, for the size of any segment at any level.
    public var video: Video
    /// How the samples behind `throughputEstimateKbps` are measured.
    public var throughputMethod: ThroughputMethod = .segment
    /// Where the player stands behind the live edge; `nil` off the `live` profile.
    public var live: LiveState? {
        get { liveBox?.state }
        set { liveBox = newValue.map(LiveStateBox.init) }
    }
    /// Kept behind one reference so contexts off live copy as cheaply as before it existed.
    private var liveBox: LiveStateBox?

    public init(
        segmentIndex: Int, segmentCount: Int, segmentDurationSeconds: Double, ladder: [BitrateLevel],
        lastLevel: Int?, bufferSeconds: Double, rebufferSeconds: Double, stallCount: Int,
        stallSeconds: Double = 0, playbackStartSeconds: Double? = nil, elapsedSeconds: Double, estimateKbps: Double, networkQuality: NetworkQuality,
        pathQuality: NetworkQuality? = nil, downloads: [DownloadRecord], video: Video,
        throughputEstimateKbps: Double? = nil, latencyEstimateSeconds: Double? = nil, maxBufferSeconds: Double = 60
    ) {
        self.segmentIndex = segmentIndex
        self.segmentCount = segmentCount
        self.segmentDurationSeconds = segmentDurationSeconds
        self.ladder = ladder
        self.lastLevel = lastLevel
        self.bufferSeconds = bufferSeconds
        self.rebufferSeconds = rebufferSeconds
        self.stallCount = stallCount
        self.stallSeconds = stallSeconds
        self.playbackStartSeconds = playbackStartSeconds
        self.elapsedSeconds = elapsedSeconds
        self.estimateKbps = estimateKbps
        self.networkQuality = networkQuality
        self.pathQuality = pathQuality
        self.downloads = downloads
        self.video = video
        self.throughputEstimateKbps = throughputEstimateKbps
        self.latencyEstimateSeconds = latencyEstimateSeconds
        self.maxBufferSeconds = maxBufferSeconds
    }

    public var levelCount: Int { ladder.count }

    /// Stall time over time since playback started (the seed's rebuffering ratio); 0 before playback.
    public var rebufferingRatio: Double {
        guard let start = playbackStartSeconds, elapsedSeconds > start else { return 0 }
        return stallSeconds / (elapsedSeconds - start)
    }

    /// Size in bytes of `segment` at `level` (both 0-based, absolute); 0 past the end.
    public func sizeBytes(segment: Int, level: Int) -> Int {
        video.sizeBytes(segment: segment, level: level)
    }

    /// Throughput of the last `count` downloads, oldest first.
    public func recentThroughputsKbps(_ count: Int) -> ArraySlice<Double> {
        downloads.suffix(count).map(\.throughputKbps)[...]
    }
}

/// A live state shared by the copies of one context.
private final class LiveStateBox: Sendable {
    let state: LiveState
    init(_ state: LiveState) { self.state = state }
}
