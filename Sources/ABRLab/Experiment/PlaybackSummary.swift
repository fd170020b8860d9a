/// A session summarised the way Sabre prints it (Spiteri, Nguyen, Sitaraman, MMSys 2018,
/// doi:10.1145/3204949.3204953): sums over played segments, and "time averages" that scale a
/// sum by segment duration over session time (start-up and stalls included).
public struct PlaybackSummary: Equatable, Sendable {
    /// Session time: start-up, playback and stalls.
    public var sessionSeconds: Double
    public var segmentDurationSeconds: Double
    public var rebufferSeconds: Double
    /// Stall events; a drain that starts on an empty buffer adds time but no event.
    public var rebufferEvents: Int
    /// Σ ln(bitrate / lowest bitrate) over played segments.
    public var playedUtility = 0.0
    /// Σ bitrate over played segments.
    public var playedBitrateKbps = 0.0
    /// Σ |Δ bitrate| between consecutively played segments.
    public var bitrateChangeKbps = 0.0
    /// Σ |ln(bitrate / previous bitrate)|.
    public var logBitrateChange = 0.0
    /// How the profile's throughput estimate fared; `nil` when the profile keeps none.
    public var accuracy: EstimateAccuracy?
    /// Session time until a segment at the ramp-up level started playing (the whole video's
    /// duration when none did); tracked on the `segments` buffer only.
    public var rampUpSeconds: Double?
    /// Time taken to follow rises of the network's sustainable level; `segments` buffer only.
    public var reactionSeconds: Double?

    public init(sessionSeconds: Double, segmentDurationSeconds: Double, rebufferSeconds: Double, rebufferEvents: Int, accuracy: EstimateAccuracy?) {
        self.sessionSeconds = sessionSeconds
        self.segmentDurationSeconds = segmentDurationSeconds
        self.rebufferSeconds = rebufferSeconds
        self.rebufferEvents = rebufferEvents
        self.accuracy = accuracy
    }

    /// Segment duration over session time: multiplying a session sum by it gives a time average.
    public var timeAverageFactor: Double {
        sessionSeconds > 0 ? segmentDurationSeconds / sessionSeconds : 0
    }

    public var timeAveragePlayedUtility: Double { playedUtility * timeAverageFactor }
    public var timeAveragePlayedBitrateKbps: Double { playedBitrateKbps * timeAverageFactor }

    /// Sabre's score: `(Σ utility − γp · rebuffer / segment duration) × segment duration / session time`.
    public func timeAverageScore(gammaP: Double) -> Double {
        timeAverageFactor * (playedUtility - gammaP * (rebufferSeconds * 1000) / (segmentDurationSeconds * 1000))
    }
}
