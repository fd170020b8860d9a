import Foundation

/// Emulates one streaming session segment by segment over a trace, deterministically.
///
/// Internally, times are kept in milliseconds and combined in the same order as Pensieve's
/// `fixed_env.py`, so the `pensieve` profile reproduces its numbers exactly; everything public
/// is in seconds.
public struct SessionEmulator: Sendable {
    /// The profile sessions play; checked whenever it is set (``EmulationProfile/validate()``), so
    /// a session reads the verdict instead of checking it again.
    public var profile: EmulationProfile {
        didSet { settingsRefusal = Self.refusal(of: profile) }
    }
    /// Segments to play; overrides the profile's count when set.
    public var segmentsToPlay: Int?
    /// The 0-based level of every session's first segment, played without asking the strategy
    /// (as Pensieve's harness fetches its first chunk at `DEFAULT_QUALITY`); `nil` lets the
    /// strategy choose it. The strategy's first decision is then the second segment's.
    public var firstLevel: Int?
    /// Whether results keep the state machine's transition log.
    public var recordsTransitions: Bool
    /// Why ``profile`` cannot play a session, `nil` when it can.
    public private(set) var settingsRefusal: InputError?

    /// The abandonment of one segment that ends the session with an error. Sabre's own
    /// algorithms, run as Sabre runs them, abandon a segment at most 44 times on its 3G, 4G,
    /// hd_fs and sd_fs traces with `movie.json`, `bbb.json` and `bbb4k.json`; a check that
    /// abandons more than 20 times as often loops, and each retry costs a download record here
    /// and an entry in each of a script's ctx history arrays.
    public static let maxAbandonmentsPerSegment = 1000

    public init(profile: EmulationProfile = .default, segmentsToPlay: Int? = nil, firstLevel: Int? = nil, recordsTransitions: Bool = true) {
        self.profile = profile
        self.segmentsToPlay = segmentsToPlay
        self.firstLevel = firstLevel
        self.recordsTransitions = recordsTransitions
        settingsRefusal = Self.refusal(of: profile)
    }

    private static func refusal(of profile: EmulationProfile) -> InputError? {
        do { try profile.validate() } catch { return error }
        return nil
    }

    /// Segments a session of `video` plays under this emulator's settings (on `live`, over a
    /// trace of `traceSeconds`: enough for the live duration, one pass of the trace by default).
    public func segmentCount(for video: Video, traceSeconds: Double? = nil) -> Int {
        if let segmentsToPlay { return segmentsToPlay }
        if let live = profile.liveSettings, let traceSeconds {
            return live.segmentCount(segmentSeconds: video.segmentDurationSeconds, traceSeconds: traceSeconds)
        }
        return profile.segmentsToPlay ?? video.segmentCount
    }

    /// Checks, before any session runs, that this emulator can play `video`. A live stream
    /// repeats the video's segments for as long as the session needs.
    public func validate(video: Video) throws(EmulationError) {
        if let firstLevel, !(0..<video.levelCount).contains(firstLevel) {
            throw .firstLevelOutOfRange(video: video.name, level: firstLevel, levelCount: video.levelCount)
        }
        if let live = profile.liveSettings {
            guard (segmentsToPlay ?? 1) >= 1 else { throw .videoTooShort(video: video.name, segments: video.segmentCount, needed: segmentsToPlay ?? 0) }
            try validateLive(live, segmentCount: segmentsToPlay ?? 1, video: video)
            return
        }
        let needed = segmentCount(for: video)
        guard needed >= 1, needed <= video.segmentCount else {
            throw .videoTooShort(video: video.name, segments: video.segmentCount, needed: needed)
        }
    }

    /// Plays `video` over `trace` with `strategy`, which must be fresh for this session: a
    /// ``StreamingSession``'s engine, specialised for the profile's player model, stepped to its
    /// end with the strategy answering every point.
    public func run<Strategy: SessionStrategy>(
        _ strategy: inout Strategy,
        strategyID: String,
        trace: NetworkTrace,
        video: Video,
        seed: UInt64 = 0
    ) throws(EmulationError) -> SessionResult {
        var session = try StreamingSession(emulator: self, strategyID: strategyID, trace: trace, video: video, seed: seed)
        return try session.run(&strategy)
    }

    /// Plays a session with a strategy given as an existential, as the experiment runner holds them.
    public func run(
        strategy: any SessionStrategy, strategyID: String, trace: NetworkTrace, video: Video, seed: UInt64 = 0
    ) throws(EmulationError) -> SessionResult {
        var opened = OpenedStrategy(strategy)
        return try run(&opened, strategyID: strategyID, trace: trace, video: video, seed: seed)
    }

    /// Checks that a live session of `segmentCount` segments can finish: the first chunk of its
    /// last segment exists within the session's time limit (else the session surely runs past
    /// it), and its repeated video holds no more sizes than a video may. Checked before the
    /// session allocates anything for its segments or chunks.
    func validateLive(_ live: LiveSettings, segmentCount: Int, video: Video) throws(EmulationError) {
        let seconds = video.segmentDurationSeconds
        let tooLong = EmulationError.liveSessionTooLong(segments: segmentCount, segmentSeconds: seconds, limitSeconds: profile.maxSessionSeconds)
        guard seconds <= profile.maxSessionSeconds, segmentCount <= Video.maximumSizeCount / video.levelCount else { throw tooLong }
        let lastChunkExists = Double(segmentCount - 1) * seconds + live.chunkDuration(segmentSeconds: seconds) - live.targetLatencySeconds
        guard lastChunkExists <= profile.maxSessionSeconds else { throw tooLong }
    }

    /// The video a live session streams: `video` itself when it has `segmentCount` segments,
    /// else its segments repeated in order until there are that many.
    static func liveVideo(_ video: Video, segmentCount: Int) throws(EmulationError) -> Video {
        guard video.segmentCount < segmentCount else { return video }
        let rows = (0..<segmentCount).map { segment in
            (0..<video.levelCount).map { video.sizeBytes(segment: segment % video.segmentCount, level: $0) }
        }
        do {
            return try Video(
                name: video.name, segmentDurationSeconds: video.segmentDurationSeconds, ladder: video.ladder,
                sizesBytes: rows, formats: video.formats
            )
        } catch {
            throw .settingsRefused(error)
        }
    }
}
