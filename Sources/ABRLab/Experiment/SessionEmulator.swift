import Foundation

/// Emulates one streaming session segment by segment over a trace, deterministically.
///
/// Internally, times are kept in milliseconds and combined in the same order as Pensieve's
/// `fixed_env.py`, so the `pensieve` profile reproduces its numbers exactly; everything public
/// is in seconds.
public struct SessionEmulator: Sendable {
    public var profile: EmulationProfile
    /// Segments to play; overrides the profile's count when set.
    public var segmentsToPlay: Int?
    /// Whether results keep the state machine's transition log.
    public var recordsTransitions: Bool

    /// The abandonment of one segment that ends the session with an error. Sabre's own
    /// algorithms, run as Sabre runs them, abandon a segment at most 44 times on its 3G, 4G,
    /// hd_fs and sd_fs traces with `movie.json`, `bbb.json` and `bbb4k.json`; a check that
    /// abandons more than 20 times as often loops, and each retry costs a download record here
    /// and an entry in each of a script's ctx history arrays.
    public static let maxAbandonmentsPerSegment = 1000

    public init(profile: EmulationProfile = .default, segmentsToPlay: Int? = nil, recordsTransitions: Bool = true) {
        self.profile = profile
        self.segmentsToPlay = segmentsToPlay
        self.recordsTransitions = recordsTransitions
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

    /// Plays `video` over `trace` with `strategy`, which must be fresh for this session.
    public func run<Strategy: SessionStrategy>(
        _ strategy: inout Strategy,
        strategyID: String,
        trace: NetworkTrace,
        video: Video,
        seed: UInt64 = 0
    ) throws(EmulationError) -> SessionResult {
        try validate(video: video)
        do { try profile.validate() } catch { throw .strategyFailed(message: error.description) }
        guard trace.deliversData else { throw .traceDeliversNoData(trace: trace.name) }
        let count = segmentCount(for: video, traceSeconds: trace.durationSeconds)
        if let live = profile.liveSettings { try validateLive(live, segmentCount: count, video: video) }
        let video = profile.liveSettings == nil ? video : try Self.liveVideo(video, segmentCount: count)
        var session = SessionState(profile: profile, trace: trace, video: video, count: count)
        session.machine.send(.load(video.sessionURL))

        let info = SessionInfo(
            video: video, segmentCount: session.count, traceName: trace.name, profileName: profile.name,
            seed: seed, maxBufferSeconds: profile.maxBufferSeconds, live: profile.liveSettings
        )
        do { try strategy.setUp(info) } catch { throw Self.strategyError(error, segment: nil, trace: trace.name) }

        // One context per request: built after a request, it goes to `didDownload` and then to
        // the next decision. Its history is dropped before the next request so the emulator
        // extends the history in place instead of copying it.
        var context = session.context(index: 0)
        var index = 0
        var abandonments = 0
        let levelCount = video.levelCount
        while index < session.count {
            try session.spendStep()
            let waitMs = try session.waitForRoom()
            if waitMs > 0 {
                context = session.context(index: index)
                do { try strategy.didWait(seconds: waitMs / 1000, context: context) } catch {
                    throw Self.strategyError(error, segment: index, trace: trace.name)
                }
            }
            let decision: RequestDecision
            do { decision = try strategy.decide(context) } catch {
                throw Self.strategyError(error, segment: index, trace: trace.name)
            }
            guard decision.level >= 0, decision.level < levelCount else {
                throw .levelOutOfRange(strategy: strategyID, level: decision.level, levelCount: levelCount)
            }
            guard decision.delaySeconds.isFinite, decision.delaySeconds >= 0 else {
                throw .strategyFailed(message: "\(strategyID): asked for a delay of \(NumberText.readable(decision.delaySeconds)) s before segment \(index + 1); delays are finite and ≥ 0")
            }
            if let rate = decision.playbackRate {
                guard profile.liveSettings != nil else {
                    throw .strategyFailed(message: "\(strategyID): asked for a playback rate before segment \(index + 1); rates need the live profile")
                }
                guard LiveSettings.playbackRateRange.contains(rate) else {
                    throw .strategyFailed(message: "\(strategyID): asked for a playback rate of \(NumberText.readable(rate)) before segment \(index + 1); rates are 0.5…2")
                }
            }
            context.downloads = []
            let delivered: Bool
            switch profile.mechanics {
            case .wholeTransfers:
                try session.requestOnLevelBuffer(index: index, decision: decision)
                delivered = true
            case .live:
                try session.requestOnLiveBuffer(index: index, decision: decision)
                delivered = true
            case .segmentBuffer:
                delivered = try session.requestOnSegmentBuffer(index: index, decision: decision) { (progress) throws(EmulationError) -> AbandonmentAnswer in
                    let answer: AbandonmentAnswer
                    do { answer = try strategy.answerAbandonment(progress) } catch {
                        throw Self.strategyError(error, segment: progress.segmentIndex, trace: trace.name)
                    }
                    if let lower = answer.level, !(lower >= 0 && lower < progress.level) {
                        throw .strategyFailed(message: "\(strategyID): the abandonment check returned level \(lower) while downloading level \(progress.level); it must return a lower level or nothing")
                    }
                    guard answer.recheck.isValid else {
                        throw .strategyFailed(message: "\(strategyID): the abandonment check asked to recheck at NaN while downloading segment \(progress.segmentIndex + 1)")
                    }
                    return answer
                }
            }
            let requested = index
            if delivered {
                abandonments = 0
            } else if session.downloads.last?.abandonedToLevel != nil {
                abandonments += 1
                guard abandonments < Self.maxAbandonmentsPerSegment else {
                    throw .abandonmentLimit(check: strategy.abandonmentCheckLocation() ?? strategyID, segment: requested, trace: trace.name)
                }
            }
            // A live player that seeked to the live edge goes on from the segment it landed in.
            if delivered { index = session.live?.nextSegment ?? index + 1 }
            context = session.context(index: index)
            do { try strategy.didDownload(session.downloads[session.downloads.count - 1], context: context) } catch {
                throw Self.strategyError(error, segment: requested, trace: trace.name)
            }
        }
        return session.finish(recordsTransitions: recordsTransitions)
    }

    /// Plays a session with a strategy given as an existential, as the experiment runner holds them.
    public func run(
        strategy: any SessionStrategy, strategyID: String, trace: NetworkTrace, video: Video, seed: UInt64 = 0
    ) throws(EmulationError) -> SessionResult {
        var opened = strategy
        return try run(&opened, strategyID: strategyID, trace: trace, video: video, seed: seed)
    }

    /// Checks that a live session of `segmentCount` segments can finish: the first chunk of its
    /// last segment exists within the session's time limit (else the session surely runs past
    /// it), and its repeated video holds no more sizes than a video may. Checked before the
    /// session allocates anything for its segments or chunks.
    private func validateLive(_ live: LiveSettings, segmentCount: Int, video: Video) throws(EmulationError) {
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
            throw .strategyFailed(message: error.description)
        }
    }

    /// A strategy's error, with the segment (1-based, as in every output) and trace it happened on.
    private static func strategyError(_ error: any Error, segment: Int?, trace: String) -> EmulationError {
        if let emulation = error as? EmulationError { return emulation }
        let place = segment.map { "segment \($0 + 1) of \(trace)" } ?? "setting up \(trace)"
        return .strategyFailed(message: "\(String(describing: error)) (\(place))")
    }
}
