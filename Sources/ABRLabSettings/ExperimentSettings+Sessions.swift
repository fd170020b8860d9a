import ABRLab
import ABRLabLua

/// What every session of a run shares, resolved from the settings in one order (the video, the
/// emulator, the QoE model): the one composition root `compare` and Python's environments both
/// call, so a setting resolves alike, and the first of several wrong ones is refused alike, on
/// both faces.
public struct ResolvedSessions: Sendable {
    public let video: Video
    /// What loading the video warned of (an HLS master's odd variants, an MPD's ignored sets).
    public let videoWarnings: [InputWarning]
    public let emulator: SessionEmulator
    /// The built-in model; `linear` when a Lua model script scores instead (``customQoE``).
    public let qoe: QoEModel
    public let customQoE: LuaQoEModel?
}

extension ExperimentSettings {
    /// The video, the emulator and the QoE model these settings describe.
    public func resolveSessions(recordsTransitions: Bool = true) throws(InputError) -> ResolvedSessions {
        let (video, warnings) = try resolveVideoWithWarnings()
        let emulator = try resolveEmulator(recordsTransitions: recordsTransitions)
        return ResolvedSessions(
            video: video, videoWarnings: warnings, emulator: emulator, qoe: try resolveQoE(), customQoE: try resolveScriptedQoE()
        )
    }
}
