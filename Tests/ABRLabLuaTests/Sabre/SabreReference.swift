import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Runs Sabre's algorithms (`Strategies/sabre`) under the `sabre` profile and reads back every
/// metric Sabre prints, named as `scripts/reference/sabre_spec.py --json` names them.
enum SabreReference {
    static let packageRoot = StrategyLibraryTests.packageRoot
    static let datasets = Datasets.url("sabre")
    static let algorithms = ["bola", "bolae", "dynamic", "dynamicdash", "throughput"]

    static func script(_ id: String) throws -> LuaScript {
        try LuaStrategyLoader().load(path: packageRoot.appendingPathComponent("Strategies/sabre/\(id).lua").path)
    }

    static func video(_ path: String) throws -> Video {
        try VideoLoader.loadSabreManifest(datasets.appendingPathComponent(path))
    }

    static func trace(_ path: String) throws -> NetworkTrace {
        try TraceLoader.load(datasets.appendingPathComponent(path)).trace
    }

    /// Sabre's printed metrics of one session.
    static func metrics(
        algorithm: String, trace: NetworkTrace, video: Video, replacement: EmulationProfile.Replacement = .none
    ) throws -> [String: Double] {
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(replacement: replacement))
        let script = try script(algorithm)
        var strategy = LuaStrategy(script: script)
        let result = try SessionEmulator(profile: profile).run(&strategy, strategyID: algorithm, trace: trace, video: video)
        guard let p = result.playback else { return [:] }
        let k = p.timeAverageFactor
        let a = p.accuracy ?? EstimateAccuracy()
        let sessionMs = p.sessionSeconds * 1000
        let segmentMs = p.segmentDurationSeconds * 1000
        return [
            "buffer_size": profile.maxBufferSeconds * 1000,
            "total_played_utility": p.playedUtility, "time_average_played_utility": p.timeAveragePlayedUtility,
            "total_played_bitrate": p.playedBitrateKbps, "time_average_played_bitrate": p.timeAveragePlayedBitrateKbps,
            "total_play_time": p.sessionSeconds, "total_play_time_chunks": sessionMs / segmentMs,
            "total_rebuffer": p.rebufferSeconds, "rebuffer_ratio": p.rebufferSeconds / p.sessionSeconds,
            "time_average_rebuffer": p.rebufferSeconds * k,
            "total_rebuffer_events": Double(p.rebufferEvents), "time_average_rebuffer_events": Double(p.rebufferEvents) * k,
            "total_bitrate_change": p.bitrateChangeKbps, "time_average_bitrate_change": p.bitrateChangeKbps * k,
            "total_log_bitrate_change": p.logBitrateChange, "time_average_log_bitrate_change": p.logBitrateChange * k,
            "time_average_score": p.timeAverageScore(gammaP: 5),
            "over_estimate_count": Double(a.overCount), "over_estimate": a.overMeanKbps,
            "leq_estimate_count": Double(a.atOrBelowCount), "leq_estimate": a.atOrBelowMeanKbps, "estimate": a.meanErrorKbps,
            "rampup_time": p.rampUpSeconds ?? .nan, "total_reaction_time": p.reactionSeconds ?? .nan,
        ]
    }
}
