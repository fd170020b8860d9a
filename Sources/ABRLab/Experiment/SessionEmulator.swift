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

    public init(profile: EmulationProfile = .default, segmentsToPlay: Int? = nil, recordsTransitions: Bool = true) {
        self.profile = profile
        self.segmentsToPlay = segmentsToPlay
        self.recordsTransitions = recordsTransitions
    }

    /// Segments a session of `video` plays under this emulator's settings.
    public func segmentCount(for video: Video) -> Int {
        segmentsToPlay ?? profile.segmentsToPlay ?? video.segmentCount
    }

    /// Checks, before any session runs, that this emulator can play `video`.
    public func validate(video: Video) throws(EmulationError) {
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
        guard trace.deliversData else { throw .traceDeliversNoData(trace: trace.name) }
        var session = SessionState(profile: profile, trace: trace, video: video, count: segmentCount(for: video))
        session.machine.send(.load(video.sessionURL))

        let info = SessionInfo(
            video: video, segmentCount: session.count, traceName: trace.name, profileName: profile.name,
            seed: seed, maxBufferSeconds: profile.maxBufferSeconds
        )
        do { try strategy.setUp(info) } catch { throw Self.strategyError(error) }

        // One context per segment: built after a download, it goes to `didDownload` and then to
        // the next decision. Its history is dropped before the next download so the emulator
        // extends the history in place instead of copying it.
        var context = session.context(index: 0)
        for index in 0..<session.count {
            let level: Int
            do { level = try strategy.chooseLevel(context) } catch { throw Self.strategyError(error) }
            guard level >= 0, level < video.levelCount else {
                throw .levelOutOfRange(strategy: strategyID, level: level, levelCount: video.levelCount)
            }
            context.downloads = []
            try session.download(index: index, level: level)
            context = session.context(index: index + 1)
            do { try strategy.didDownload(session.downloads[index], context: context) } catch {
                throw Self.strategyError(error)
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

    private static func strategyError(_ error: any Error) -> EmulationError {
        if let emulation = error as? EmulationError { return emulation }
        return .strategyFailed(message: String(describing: error))
    }
}
