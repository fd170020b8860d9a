import ABRLab
import ABRLabLua
import ArgumentParser
import Foundation

/// Options that every command that emulates sessions shares: the video, the profile, the QoE
/// model, segment count, seed and strategy parameters.
struct ExperimentOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Video: \(VideoLoader.specHelp).", valueName: "spec"))
    var video: String = Defaults.video

    @Option(name: .customLong("ladder-kbps"), help: ArgumentHelp(
        "Ladder for videos given as bare size files, e.g. 300,750,1200,1850,2850,4300.", valueName: "kbps,..."))
    var ladderKbps: String?

    @Option(name: .customLong("segment-duration-s"), help: "Segment duration for videos given as bare size files.")
    var segmentDurationSeconds: Double?

    @Option(help: ArgumentHelp(
        "Segments each session plays (default: the profile's count, else the whole video); compare also takes csv, csv.gz, csv.zst or none here, the format of its per-segment output (as --segments-format).",
        valueName: "n|format"))
    var segments: String?

    @Option(help: ArgumentHelp("Emulation profile: default, pensieve, sabre, live or twitch-challenge.", valueName: "name"))
    var profile: String = "default"

    @Option(name: .customLong("target-latency-s"), help: "Live latency the player joins at and catches up to (live profile; default 1.5).")
    var targetLatencySeconds: Double?

    @Option(name: .customLong("live-duration-s"), help: "Media each live session plays, s (live profile; default: one pass of the trace).")
    var liveDurationSeconds: Double?

    @Option(name: .customLong("warmup-s"), help: "Live warm-up before the trace's pattern, s: its rows count in no score and the pattern plays to its end (live profile; docs/live.md).")
    var warmupSeconds: Double?

    @Option(name: .customLong("warmup-kbps"), help: "Rate of the live warm-up's link, kbps (default 3000).")
    var warmupKbps: Double?

    @Option(help: ArgumentHelp("Live catch-up of dash.js 5 or of dash.js 3.0.1, as the Twitch challenge ran it (live profile; default dashjs5; docs/live.md).", valueName: "dashjs5|dashjs3"))
    var catchup: String?

    @Option(name: .customLong("catchup-min-drift-s"), help: "dash.js 3.0.1's liveCatchUpMinDrift: drift within which the rate stays 1 (dashjs3 catch-up; default 0.02).")
    var catchupMinDriftSeconds: Double?

    @Option(name: .customLong("max-buffer-s"), help: "Maximum buffer, overriding the profile's (60 s default and pensieve, 25 s sabre).")
    var maxBufferSeconds: Double?

    @Flag(name: .customLong("no-abandon"), help: "Turn off abandonment checks (sabre profile).")
    var noAbandon = false

    @Flag(name: .customLong("check-every-step"), help: "Call abandonment checks at every progress step, ignoring the rechecks they ask for (verifies a strategy's rechecks: results must not change).")
    var checkEveryStep = false

    @Option(help: ArgumentHelp("Replace buffered segments: none, left or right (sabre profile).", valueName: "rule"))
    var replace: String = "none"

    @Option(name: .customLong("bandwidth-multiplier"), help: "Scale every trace's bandwidth (Sabre's -nm).")
    var bandwidthMultiplier: Double = 1

    @Option(help: ArgumentHelp(
        "Throughput estimate offered to strategies: ewma:H,... (half-lives, s), sliding:W,... (windows, segments) or none (default: ewma:3,8; none on pensieve).",
        valueName: "spec"))
    var estimator: String?

    @Option(help: ArgumentHelp("QoE model: linear, log, hd, sabre, nqoe (live), or a Lua model script (see docs/qoe.md).", valueName: "model"))
    var qoe: String = "linear"

    @Option(name: .customLong("gamma-p"), help: "Sabre's γp: rebuffer weight of the sabre QoE model and of the time_avg_score column (default 5).")
    var gammaP: Double?

    @Option(name: .customLong("rebuffer-penalty"), help: "QoE penalty per second of rebuffering (default: 4.3 linear, 2.66 log, 8 hd).")
    var rebufferPenalty: Double?

    @Option(name: .customLong("smoothness-penalty"), help: "QoE penalty per unit of utility switched between segments (default 1).")
    var smoothnessPenalty: Double = 1

    @Option(name: .customLong("switch-penalty"), help: "NQoE's µ: penalty per kbps of bitrate change between segments (nqoe model; default 0.02).")
    var switchPenalty: Double?

    @Option(name: .customLong("trace-format"), help: ArgumentHelp(
        "Read traces as this format instead of detecting it (pensieve, sabre, mahimahi, csv).", valueName: "format"))
    var traceFormat: String?

    @Option(name: .customLong("mahimahi-bin-ms"), help: "Bin width for Mahimahi traces, ms.")
    var mahimahiBinMilliseconds: Int = TraceLoadOptions.defaultMahimahiBinMilliseconds

    @Option(name: .customLong("param"), help: ArgumentHelp(
        "Set a strategy parameter, native or Lua, e.g. robust_mpc.horizon=3 or pensieve-native.action=argmax (repeatable, once per key); a list, e.g. bola.gp=3,5,8, sweeps it in compare.",
        valueName: "id.key=value"))
    var params: [String] = []

    @Option(name: .customLong("param-grid"), help: ArgumentHelp(
        "A CSV file of parameter settings: a header of id.key columns, then one setting per line (a strategy's cells all filled or all empty; # comments); each setting runs as its own row in compare.",
        valueName: "file"))
    var paramGrid: String?

    @Option(help: "Seed for strategies' randomness and the bootstrap intervals. (default: 1)", transform: OptionParsing.seed)
    var seed: UInt64 = 1

    @Option(name: .customLong("lua-instructions"), help: "Lua VM instructions one strategy call may run.")
    var luaInstructions: Int = LuaLimits.default.instructionsPerCall

    @Option(name: .customLong("lua-memory-mb"), help: "Memory cap of each Lua engine, MiB.")
    var luaMemoryMegabytes: Int = LuaLimits.default.memoryBytesPerEngine >> 20

    @Flag(help: "Show Lua tracebacks and let scripts print to stderr.")
    var verbose = false

    func strategyResolver() throws(InputError) -> StrategyResolver {
        StrategyResolver(params: try resolveParams(), luaLimits: try luaLimits(), verbose: verbose)
    }

    /// The limits every Lua script of the run (strategies and a QoE model) runs under.
    func luaLimits() throws(InputError) -> LuaLimits {
        guard luaInstructions > 0 else { throw InputError(file: "--lua-instructions", "must be positive") }
        // Bytes are MiB << 20: a larger count would wrap around.
        guard luaMemoryMegabytes > 0, luaMemoryMegabytes <= 1 << 20 else { throw InputError(file: "--lua-memory-mb", "must be from 1 to 1048576 (1 TiB)") }
        var limits = LuaLimits.default
        limits.instructionsPerCall = luaInstructions
        limits.memoryBytesPerEngine = luaMemoryMegabytes << 20
        return limits
    }

    /// The profile `--profile` names with every option that changes it applied: the one place
    /// flags map onto ``EmulationProfile``. An option that would change nothing on the profile's
    /// mechanics is refused, as `--replace` is on a profile without a segment buffer.
    func resolveProfile() throws(InputError) -> EmulationProfile {
        guard var profile = EmulationProfile.named(profile) else {
            let names = EmulationProfile.builtIn.map(\.name).joined(separator: ", ")
            throw InputError(file: "--profile", "unknown profile '\(profile)'; choose one of \(names)")
        }
        if let maxBufferSeconds { profile.maxBufferSeconds = maxBufferSeconds }
        var segments = profile.segmentBufferSettings
        if noAbandon {
            guard segments?.abandonment == true else { throw InputError(file: "--no-abandon", "turns off abandonment checks, which profile \(profile.name) has none of (only sabre checks)") }
            segments?.abandonment = false
        }
        if checkEveryStep {
            guard segments?.abandonment == true else {
                throw InputError(
                    file: "--check-every-step",
                    noAbandon ? "calls abandonment checks, which --no-abandon turns off" : "calls abandonment checks, which profile \(profile.name) has none of (only sabre checks)"
                )
            }
            segments?.honoursRechecks = false
        }
        guard let rule = EmulationProfile.Replacement(rawValue: replace) else {
            throw InputError(file: "--replace", "unknown rule '\(replace)'; choose none, left or right")
        }
        if rule != .none, segments == nil {
            throw InputError(file: "--replace", "replacement needs a profile with a segment buffer (sabre), not \(profile.name)")
        }
        segments?.replacement = rule
        guard bandwidthMultiplier.isFinite, bandwidthMultiplier > 0 else {
            throw InputError(file: "--bandwidth-multiplier", "must be a positive number")
        }
        if bandwidthMultiplier != 1, segments == nil {
            throw InputError(file: "--bandwidth-multiplier", "works on the sabre network model only, not on profile \(profile.name)")
        }
        segments?.bandwidthMultiplier = bandwidthMultiplier
        if let segments { profile.mechanics = .segmentBuffer(segments) }
        if let estimator {
            profile.estimator = estimator == "none" ? nil : try OptionParsing.estimator(estimator, option: "--estimator")
        }
        try profile.validate()
        if var live = profile.liveSettings {
            if let targetLatencySeconds { live.targetLatencySeconds = targetLatencySeconds }
            live.durationSeconds = liveDurationSeconds
            try live.applyWarmup(seconds: warmupSeconds, linkKbps: warmupKbps)
            try live.applyCatchup(name: catchup, minDriftSeconds: catchupMinDriftSeconds)
            try live.validate()
            profile.mechanics = .live(live)
        } else if let option = [
            ("--target-latency-s", targetLatencySeconds), ("--live-duration-s", liveDurationSeconds),
            ("--warmup-s", warmupSeconds), ("--warmup-kbps", warmupKbps), ("--catchup-min-drift-s", catchupMinDriftSeconds),
        ].first(where: { $0.1 != nil })?.0 ?? (catchup != nil ? "--catchup" : nil) {
            throw InputError(file: option, "works on the live profile only, not on \(profile.name)")
        }
        return profile
    }

    /// The built-in model `--qoe` names; `linear` when it names a Lua script, which then scores
    /// sessions instead (`resolveScriptedQoE`).
    func resolveQoE() throws(InputError) -> QoEModel {
        if isScriptedQoE { return .linear }
        guard let kind = QoEModel.Kind(rawValue: qoe) else {
            throw InputError(file: "--qoe", "unknown QoE model '\(qoe)'; choose linear, log, hd, sabre, nqoe or a Lua model script (.lua)")
        }
        if kind == .nqoe {
            guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil else {
                throw InputError(
                    file: rebufferPenalty != nil ? "--rebuffer-penalty" : gammaP != nil ? "--gamma-p" : "--smoothness-penalty",
                    "the nqoe model's weights come from the ladder and latency; only --switch-penalty (µ) changes"
                )
            }
            let mu = switchPenalty ?? QoEModel.nqoeSwitchPenalty
            guard mu.isFinite, mu >= 0 else { throw InputError(file: "--switch-penalty", "must be a number ≥ 0") }
            return QoEModel(kind: .nqoe, smoothnessPenalty: mu)
        }
        if switchPenalty != nil { throw InputError(file: "--switch-penalty", "is the nqoe model's µ; use --smoothness-penalty with \(qoe)") }
        if let rebufferPenalty {
            guard rebufferPenalty.isFinite, rebufferPenalty >= 0 else { throw InputError(file: "--rebuffer-penalty", "must be a number ≥ 0") }
        }
        guard smoothnessPenalty.isFinite, smoothnessPenalty >= 0 else { throw InputError(file: "--smoothness-penalty", "must be a number ≥ 0") }
        if let gammaP {
            guard gammaP.isFinite, gammaP >= 0 else { throw InputError(file: "--gamma-p", "must be a number ≥ 0") }
        }
        if kind == .sabre, rebufferPenalty != nil {
            throw InputError(file: "--rebuffer-penalty", "the sabre model's rebuffer weight is --gamma-p")
        }
        return QoEModel(kind: kind, rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty, gammaP: gammaP ?? 5)
    }

    /// Whether `--qoe` names a Lua model script rather than a built-in model.
    var isScriptedQoE: Bool { QoEModel.Kind(rawValue: qoe) == nil && qoe.hasSuffix(".lua") }

    /// The Lua QoE model `--qoe` names, loaded and checked; nil for a built-in model.
    func resolveScriptedQoE() throws(InputError) -> LuaQoEModel? {
        guard isScriptedQoE else { return nil }
        guard rebufferPenalty == nil, smoothnessPenalty == 1, gammaP == nil, switchPenalty == nil else {
            throw InputError(
                file: rebufferPenalty != nil ? "--rebuffer-penalty" : gammaP != nil ? "--gamma-p"
                    : switchPenalty != nil ? "--switch-penalty" : "--smoothness-penalty",
                "applies to the built-in QoE models; a Lua model sets its own weights"
            )
        }
        return try LuaQoEModel(path: qoe, limits: luaLimits(), verbose: verbose)
    }

    func resolveTraceFormat() throws(InputError) -> TraceFormat? {
        try traceFormat.map { name throws(InputError) in try OptionParsing.traceFormat(name, option: "--trace-format") }
    }

    /// How traces are read: the format override and the Mahimahi bin width.
    func traceSetResolver() throws(InputError) -> TraceSetResolver {
        guard mahimahiBinMilliseconds > 0 else { throw InputError(file: "--mahimahi-bin-ms", "must be positive") }
        return TraceSetResolver(format: try resolveTraceFormat(), options: TraceLoadOptions(mahimahiBinMilliseconds: mahimahiBinMilliseconds))
    }

    func resolveEmulator() throws(InputError) -> SessionEmulator {
        SessionEmulator(profile: try resolveProfile(), segmentsToPlay: try segmentCount())
    }

    /// `--segments` as a count of segments to play, when it is one.
    func segmentCount() throws(InputError) -> Int? {
        guard let segments, SegmentsFormat(rawValue: segments) == nil else { return nil }
        guard let count = Int(segments), count >= 1, count <= Video.maximumSizeCount else {
            throw InputError(
                file: "--segments", "'\(segments)' is neither a number of segments (1 to \(Video.maximumSizeCount)) nor an output format (\(SegmentsFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return count
    }

    /// `--segments` as the format of compare's per-segment output, when it is one.
    var segmentsOutputFormat: SegmentsFormat? { segments.flatMap(SegmentsFormat.init(rawValue:)) }

    /// The video, its warnings printed.
    func resolveVideo() throws(InputError) -> Video {
        let (video, warnings) = try resolveVideoWithWarnings()
        warnings.forEach { CommandFailure.warn($0.description) }
        return video
    }

    /// The video and the warnings loading it gave (an HLS master's odd variants), for a
    /// command that records them.
    func resolveVideoWithWarnings() throws(InputError) -> (video: Video, warnings: [InputWarning]) {
        if video == Defaults.video { try Defaults.requireExisting(video, option: "--video") }
        if let segmentDurationSeconds {
            guard segmentDurationSeconds > 0, segmentDurationSeconds <= Video.maximumSegmentSeconds else {
                throw InputError(file: "--segment-duration-s", "must be a positive number of seconds, at most 86400")
            }
        }
        let ladder = try ladderKbps.map { text throws(InputError) in try OptionParsing.kbpsList(text, option: "--ladder-kbps") }
        if HLSVideoLoader.handles(video), ladder == nil, segmentDurationSeconds == nil {
            let loaded = try HLSVideoLoader.load(video)
            return (loaded.video, loaded.warnings)
        }
        return (try VideoLoader.load(video, ladderKbps: ladder, segmentDurationSeconds: segmentDurationSeconds), [])
    }

    /// The Lua settings that can change results, for the plan fingerprint.
    var luaLimitsDescription: String { "instructions=\(luaInstructions) memory_mb=\(luaMemoryMegabytes) verbose=\(verbose)" }

    /// `--param` values and `--param-grid` settings by strategy id, sweeps included.
    func resolveParams() throws(InputError) -> ParamAssignments {
        try ParamAssignments(parsing: params, grid: try paramGrid.map(ParamGrid.init(contentsOf:)))
    }
}
