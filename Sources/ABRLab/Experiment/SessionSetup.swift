/// What a session is played with, checked before anything is allocated for it: the profile,
/// the trace, the video (repeated for as long as a live session needs), how many segments it
/// plays, and what its strategy learns once.
struct SessionSetup: Sendable {
    let profile: EmulationProfile
    let trace: NetworkTrace
    let video: Video
    let segmentCount: Int
    /// The 0-based level the first segment plays at without a decision; `nil`: the strategy's.
    let firstLevel: Int?
    let limits: SessionLimits
    let info: SessionInfo
    let strategyID: String
    let recordsTransitions: Bool

    init(emulator: SessionEmulator, strategyID: String, trace: NetworkTrace, video: Video, seed: UInt64) throws(EmulationError) {
        let profile = emulator.profile
        // The profile was checked when it was set; a session reads the verdict.
        if let refusal = emulator.settingsRefusal { throw .settingsRefused(refusal) }
        try emulator.validate(video: video)
        guard trace.deliversData else { throw .traceDeliversNoData(trace: trace.name) }
        let count = emulator.segmentCount(for: video, traceSeconds: trace.durationSeconds)
        if let live = profile.liveSettings { try emulator.validateLive(live, segmentCount: count, video: video) }
        let played = profile.liveSettings == nil ? video : try SessionEmulator.liveVideo(video, segmentCount: count)
        self.profile = profile
        self.trace = trace
        self.video = played
        segmentCount = count
        firstLevel = emulator.firstLevel
        limits = SessionLimits(traceName: trace.name, profile: profile)
        info = SessionInfo(
            video: played, segmentCount: count, traceName: trace.name, profileName: profile.name,
            seed: seed, maxBufferSeconds: profile.maxBufferSeconds, live: profile.liveSettings,
            segmentBufferPlayer: profile.segmentBufferSettings?.player
        )
        self.strategyID = strategyID
        recordsTransitions = emulator.recordsTransitions
    }

    /// A recorder for this session.
    func recorder() -> SessionRecorder {
        SessionRecorder(video: video, segmentCount: segmentCount, profile: profile, path: trace.path, keepsTransitions: recordsTransitions)
    }
}
