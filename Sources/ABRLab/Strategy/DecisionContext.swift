/// Everything a strategy may look at when it picks the level of the next segment.
///
/// One value is passed per decision. New fields may be added over time; strategies read only
/// what they need, so adding one breaks none of them.
public struct DecisionContext: Sendable {
    // Stored in an order that packs the one-byte fields into the optionals' padding; what stays
    // the same through a session sits behind one shared reference (``Constants``), so a context
    // handed out by value at every decision copies few bytes and retains little.

    /// 0-based index of the segment being chosen.
    public var segmentIndex: Int
    /// Level of the previous segment; `nil` before the first download.
    public var lastLevel: Int?
    public var networkQuality: NetworkQuality
    /// How the samples behind `throughputEstimateKbps` are measured.
    public var throughputMethod: ThroughputMethod = .segment
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
    /// Every earlier request of this session, oldest first (abandoned ones included).
    public var downloads: [DownloadRecord]
    /// The profile's throughput estimate (Sabre's: transfer-time weighted EWMA by default, see
    /// ``ThroughputEstimator``); `nil` before the first completed download.
    public var throughputEstimateKbps: Double?
    /// The profile's latency estimate; `nil` before the first completed download.
    public var latencyEstimateSeconds: Double?
    /// Where the player stands behind the live edge; `nil` off the `live` profile.
    public var live: LiveState? {
        get { liveBox?.state }
        set { liveBox = newValue.map(LiveStateBox.init) }
    }
    /// Kept behind one reference so contexts off live copy as cheaply as before it existed.
    private var liveBox: LiveStateBox?
    private(set) var constants: Constants

    /// Segments the session plays.
    public var segmentCount: Int {
        get { constants.segmentCount }
        set { constants = constants.with { $0.segmentCount = newValue } }
    }
    public var segmentDurationSeconds: Double {
        get { constants.segmentDurationSeconds }
        set { constants = constants.with { $0.segmentDurationSeconds = newValue } }
    }
    /// The ladder, lowest first.
    public var ladder: [BitrateLevel] {
        get { constants.ladder }
        set { constants = constants.with { $0.ladder = newValue } }
    }
    /// The trace's path classified by the seed's rules, when the trace describes its path.
    public var pathQuality: NetworkQuality? {
        get { constants.pathQuality }
        set { constants = constants.with { $0.pathQuality = newValue } }
    }
    /// Buffer the player holds at most.
    public var maxBufferSeconds: Double {
        get { constants.maxBufferSeconds }
        set { constants = constants.with { $0.maxBufferSeconds = newValue } }
    }
    /// The video, for the size of any segment at any level.
    public var video: Video {
        get { constants.video }
        set { constants = constants.with { $0.video = newValue } }
    }

    public init(
        segmentIndex: Int, segmentCount: Int, segmentDurationSeconds: Double, ladder: [BitrateLevel],
        lastLevel: Int?, bufferSeconds: Double, rebufferSeconds: Double, stallCount: Int,
        stallSeconds: Double = 0, playbackStartSeconds: Double? = nil, elapsedSeconds: Double, estimateKbps: Double, networkQuality: NetworkQuality,
        pathQuality: NetworkQuality? = nil, downloads: [DownloadRecord], video: Video,
        throughputEstimateKbps: Double? = nil, latencyEstimateSeconds: Double? = nil, maxBufferSeconds: Double = 60
    ) {
        let constants = Constants(
            segmentCount: segmentCount, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder, pathQuality: pathQuality,
            maxBufferSeconds: maxBufferSeconds, video: video
        )
        self.init(constants: constants, segmentIndex: segmentIndex, downloads: downloads)
        self.lastLevel = lastLevel
        self.bufferSeconds = bufferSeconds
        self.rebufferSeconds = rebufferSeconds
        self.stallCount = stallCount
        self.stallSeconds = stallSeconds
        self.playbackStartSeconds = playbackStartSeconds
        self.elapsedSeconds = elapsedSeconds
        self.estimateKbps = estimateKbps
        self.networkQuality = networkQuality
        self.throughputEstimateKbps = throughputEstimateKbps
        self.latencyEstimateSeconds = latencyEstimateSeconds
    }

    /// A context of a session whose constants are made once: every other field zero, empty or
    /// `nil`, for the engine to fill in.
    init(constants: Constants, segmentIndex: Int, downloads: [DownloadRecord]) {
        self.constants = constants
        self.segmentIndex = segmentIndex
        self.downloads = downloads
        lastLevel = nil
        networkQuality = .offline
        bufferSeconds = 0
        rebufferSeconds = 0
        stallCount = 0
        stallSeconds = 0
        playbackStartSeconds = nil
        elapsedSeconds = 0
        estimateKbps = 0
        throughputEstimateKbps = nil
        latencyEstimateSeconds = nil
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

extension DecisionContext {
    /// What stays the same through a session, shared by every context of it.
    final class Constants: Sendable {
        struct Values {
            var segmentCount: Int
            var segmentDurationSeconds: Double
            var ladder: [BitrateLevel]
            var pathQuality: NetworkQuality?
            var maxBufferSeconds: Double
            var video: Video
        }

        let segmentCount: Int
        let segmentDurationSeconds: Double
        let ladder: [BitrateLevel]
        let pathQuality: NetworkQuality?
        let maxBufferSeconds: Double
        let video: Video

        init(segmentCount: Int, segmentDurationSeconds: Double, ladder: [BitrateLevel], pathQuality: NetworkQuality?, maxBufferSeconds: Double, video: Video) {
            self.segmentCount = segmentCount
            self.segmentDurationSeconds = segmentDurationSeconds
            self.ladder = ladder
            self.pathQuality = pathQuality
            self.maxBufferSeconds = maxBufferSeconds
            self.video = video
        }

        /// New constants with `change` applied: a context that sets one gets its own.
        func with(_ change: (inout Values) -> Void) -> Constants {
            var values = Values(
                segmentCount: segmentCount, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder,
                pathQuality: pathQuality, maxBufferSeconds: maxBufferSeconds, video: video
            )
            change(&values)
            return Constants(
                segmentCount: values.segmentCount, segmentDurationSeconds: values.segmentDurationSeconds, ladder: values.ladder,
                pathQuality: values.pathQuality, maxBufferSeconds: values.maxBufferSeconds, video: values.video
            )
        }
    }
}

/// A live state shared by the copies of one context.
private final class LiveStateBox: Sendable {
    let state: LiveState
    init(_ state: LiveState) { self.state = state }
}
