import ABRLab
import ABRLabLua
import Foundation

/// The settings every emulating command shares (the video, the profile and its options, the
/// QoE model, segment count, seed, strategy parameters and Lua limits) as plain values, and
/// what they resolve to. Each front end fills them from its own vocabulary (the command line's
/// options, a Python environment's keywords); errors name a ``Setting``.
public struct ExperimentSettings: Sendable {
    public var video: String = Defaults.video
    public var ladderKbps: String?
    public var segmentDurationSeconds: Double?
    public var segments: String?
    public var profile: String = "default"
    public var targetLatencySeconds: Double?
    public var liveDurationSeconds: Double?
    public var warmupSeconds: Double?
    public var warmupKbps: Double?
    public var catchup: String?
    public var catchupMinDriftSeconds: Double?
    public var maxBufferSeconds: Double?
    public var noAbandon: Bool = false
    public var checkEveryStep: Bool = false
    public var replace: String = "none"
    public var bandwidthMultiplier: Double = 1
    public var estimator: String?
    public var qoe: String = "linear"
    public var gammaP: Double?
    public var rebufferPenalty: Double?
    public var smoothnessPenalty: Double = 1
    public var switchPenalty: Double?
    public var traceFormat: String?
    public var mahimahiBinMilliseconds: Int = TraceLoadOptions.defaultMahimahiBinMilliseconds
    public var params: [String] = []
    public var paramGrid: String?
    public var seed: UInt64 = 1
    public var luaInstructions: Int = LuaLimits.default.instructionsPerCall
    public var luaMemoryMegabytes: Int = LuaLimits.default.memoryBytesPerEngine >> 20
    public var verbose: Bool = false

    public init() {}

    public func strategyResolver() throws(InputError) -> StrategyResolver {
        StrategyResolver(params: try resolveParams(), luaLimits: try luaLimits(), verbose: verbose)
    }

    /// The limits every Lua script of the run (strategies and a QoE model) runs under.
    public func luaLimits() throws(InputError) -> LuaLimits {
        guard luaInstructions > 0 else { throw InputError(setting: .luaInstructions, "must be positive") }
        // Bytes are MiB << 20: a larger count would wrap around.
        guard luaMemoryMegabytes > 0, luaMemoryMegabytes <= 1 << 20 else { throw InputError(setting: .luaMemoryMb, "must be from 1 to 1048576 (1 TiB)") }
        var limits = LuaLimits.default
        limits.instructionsPerCall = luaInstructions
        limits.memoryBytesPerEngine = luaMemoryMegabytes << 20
        return limits
    }

    /// The profile `profile` names with every option that changes it applied: the one place
    /// flags map onto ``EmulationProfile``. An option that would change nothing on the profile's
    /// mechanics is refused, as `replace` is on a profile without a segment buffer.
    public func resolveProfile() throws(InputError) -> EmulationProfile {
        guard var profile = EmulationProfile.named(profile) else {
            let names = EmulationProfile.builtIn.map(\.name).joined(separator: ", ")
            throw InputError(setting: .profile, "unknown profile '\(profile)'; choose one of \(names)")
        }
        if let maxBufferSeconds { profile.maxBufferSeconds = maxBufferSeconds }
        var segments = profile.segmentBufferSettings
        if noAbandon {
            guard segments?.abandonment == true else { throw InputError(setting: .noAbandon, "turns off abandonment checks, which profile \(profile.name) has none of (only sabre checks)") }
            segments?.abandonment = false
        }
        if checkEveryStep {
            guard segments?.abandonment == true else {
                throw InputError(
                    setting: .checkEveryStep,
                    noAbandon ? "calls abandonment checks, which \(Setting.noAbandon) turns off" : "calls abandonment checks, which profile \(profile.name) has none of (only sabre checks)"
                )
            }
            segments?.honoursRechecks = false
        }
        guard let rule = EmulationProfile.Replacement(rawValue: replace) else {
            throw InputError(setting: .replace, "unknown rule '\(replace)'; choose none, left or right")
        }
        if rule != .none, segments == nil {
            throw InputError(setting: .replace, "replacement needs a profile with a segment buffer (sabre), not \(profile.name)")
        }
        segments?.replacement = rule
        guard bandwidthMultiplier.isFinite, bandwidthMultiplier > 0 else {
            throw InputError(setting: .bandwidthMultiplier, "must be a positive number")
        }
        if bandwidthMultiplier != 1, segments == nil {
            throw InputError(setting: .bandwidthMultiplier, "works on the sabre network model only, not on profile \(profile.name)")
        }
        segments?.bandwidthMultiplier = bandwidthMultiplier
        if let segments { profile.mechanics = .segmentBuffer(segments) }
        if let estimator {
            profile.estimator = estimator == "none" ? nil : try SettingParsing.estimator(estimator, setting: .estimator)
        }
        try profile.validate()
        if var live = profile.liveSettings {
            if let targetLatencySeconds { live.targetLatencySeconds = targetLatencySeconds }
            live.durationSeconds = liveDurationSeconds
            try live.applyWarmup(seconds: warmupSeconds, linkKbps: warmupKbps)
            try live.applyCatchup(name: catchup, minDriftSeconds: catchupMinDriftSeconds)
            try live.validate()
            profile.mechanics = .live(live)
        } else if let setting = [
            (Setting.targetLatencyS, targetLatencySeconds), (.liveDurationS, liveDurationSeconds),
            (.warmupS, warmupSeconds), (.warmupKbps, warmupKbps), (.catchupMinDriftS, catchupMinDriftSeconds),
        ].first(where: { $0.1 != nil })?.0 ?? (catchup != nil ? .catchup : nil) {
            throw InputError(setting: setting, "works on the live profile only, not on \(profile.name)")
        }
        return profile
    }

    /// The built-in model `qoe` names; `linear` when it names a Lua script, which then scores
    /// sessions instead (`resolveScriptedQoE`).
    public func resolveQoE() throws(InputError) -> QoEModel {
        if isScriptedQoE { return .linear }
        guard let kind = QoEModel.Kind(rawValue: qoe) else {
            throw InputError(setting: .qoe, "unknown QoE model '\(qoe)'; choose linear, log, hd, sabre, nqoe or a Lua model script (.lua)")
        }
        if kind == .nqoe {
            guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil else {
                throw InputError(
                    setting: rebufferPenalty != nil ? .rebufferPenalty : gammaP != nil ? .gammaP : .smoothnessPenalty,
                    "the nqoe model's weights come from the ladder and latency; only \(Setting.switchPenalty) (µ) changes"
                )
            }
            let mu = switchPenalty ?? QoEModel.nqoeSwitchPenalty
            guard mu.isFinite, mu >= 0 else { throw InputError(setting: .switchPenalty, "must be a number ≥ 0") }
            return QoEModel(kind: .nqoe, smoothnessPenalty: mu)
        }
        if switchPenalty != nil { throw InputError(setting: .switchPenalty, "is the nqoe model's µ; use \(Setting.smoothnessPenalty) with \(qoe)") }
        if let rebufferPenalty {
            guard rebufferPenalty.isFinite, rebufferPenalty >= 0 else { throw InputError(setting: .rebufferPenalty, "must be a number ≥ 0") }
        }
        guard smoothnessPenalty.isFinite, smoothnessPenalty >= 0 else { throw InputError(setting: .smoothnessPenalty, "must be a number ≥ 0") }
        if let gammaP {
            guard gammaP.isFinite, gammaP >= 0 else { throw InputError(setting: .gammaP, "must be a number ≥ 0") }
        }
        if kind == .sabre, rebufferPenalty != nil {
            throw InputError(setting: .rebufferPenalty, "the sabre model's rebuffer weight is \(Setting.gammaP)")
        }
        return QoEModel(kind: kind, rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty, gammaP: gammaP ?? 5)
    }

    /// Whether `qoe` names a Lua model script rather than a built-in model.
    public var isScriptedQoE: Bool { QoEModel.Kind(rawValue: qoe) == nil && qoe.hasSuffix(".lua") }

    /// The Lua QoE model `qoe` names, loaded and checked; nil for a built-in model.
    public func resolveScriptedQoE() throws(InputError) -> LuaQoEModel? {
        guard isScriptedQoE else { return nil }
        guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil, switchPenalty == nil else {
            throw InputError(
                    setting: rebufferPenalty != nil ? .rebufferPenalty : gammaP != nil ? .gammaP
                    : switchPenalty != nil ? .switchPenalty : .smoothnessPenalty,
                "applies to the built-in QoE models; a Lua model sets its own weights"
            )
        }
        return try LuaQoEModel(path: qoe, limits: luaLimits(), verbose: verbose)
    }

    public func resolveTraceFormat() throws(InputError) -> TraceFormat? {
        try traceFormat.map { name throws(InputError) in try SettingParsing.traceFormat(name, setting: .traceFormat) }
    }

    /// How traces are read: the format override and the Mahimahi bin width.
    public func traceSetResolver() throws(InputError) -> TraceSetResolver {
        guard mahimahiBinMilliseconds > 0 else { throw InputError(setting: .mahimahiBinMs, "must be positive") }
        return TraceSetResolver(format: try resolveTraceFormat(), options: TraceLoadOptions(mahimahiBinMilliseconds: mahimahiBinMilliseconds))
    }

    public func resolveEmulator() throws(InputError) -> SessionEmulator {
        SessionEmulator(profile: try resolveProfile(), segmentsToPlay: try segmentCount())
    }

    /// `segments` as a count of segments to play, when it is one.
    public func segmentCount() throws(InputError) -> Int? {
        guard let segments, SegmentsFormat(rawValue: segments) == nil else { return nil }
        guard let count = Int(segments), count >= 1, count <= Video.maximumSizeCount else {
            throw InputError(
                    setting: .segments, "'\(segments)' is neither a number of segments (1 to \(Video.maximumSizeCount)) nor an output format (\(SegmentsFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return count
    }

    /// `segments` as the format of compare's per-segment output, when it is one.
    public var segmentsOutputFormat: SegmentsFormat? { segments.flatMap(SegmentsFormat.init(rawValue:)) }

    /// The video and the warnings loading it gave (an HLS master's odd variants, an MPD's ignored
    /// Adaptation Sets), for a command that records them.
    public func resolveVideoWithWarnings() throws(InputError) -> (video: Video, warnings: [InputWarning]) {
        if video == Defaults.video { try Defaults.requireExisting(video, setting: .video) }
        if let segmentDurationSeconds {
            guard segmentDurationSeconds > 0, segmentDurationSeconds <= Video.maximumSegmentSeconds else {
                throw InputError(setting: .segmentDurationS, "must be a positive number of seconds, at most 86400")
            }
        }
        let ladder = try ladderKbps.map { text throws(InputError) in try SettingParsing.kbpsList(text, setting: .ladderKbps) }
        let video = try DatasetInput.path(video)
        if HLSVideoLoader.handles(video), ladder == nil, segmentDurationSeconds == nil {
            let loaded = try HLSVideoLoader.load(video)
            return (loaded.video, loaded.warnings)
        }
        if VideoLoader.handlesMPD(video), ladder == nil, segmentDurationSeconds == nil {
            let loaded = try VideoLoader.loadMPD(URL(fileURLWithPath: video))
            return (loaded.video, loaded.warnings)
        }
        return (try VideoLoader.load(video, ladderKbps: ladder, segmentDurationSeconds: segmentDurationSeconds), [])
    }

    /// The Lua settings that can change results, for the plan fingerprint.
    public var luaLimitsDescription: String { "instructions=\(luaInstructions) memory_mb=\(luaMemoryMegabytes) verbose=\(verbose)" }

    /// `params` and the `paramGrid` file's settings by strategy id, sweeps included.
    public func resolveParams() throws(InputError) -> ParamAssignments {
        try ParamAssignments(parsing: params, grid: try paramGrid.map(ParamGrid.init(contentsOf:)))
    }
}
