import ABRLab
import ABRLabCompare
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

    /// The options as the library's settings.
    var settings: ExperimentSettings {
        var settings = ExperimentSettings()
        settings.video = video
        settings.ladderKbps = ladderKbps
        settings.segmentDurationSeconds = segmentDurationSeconds
        settings.segments = segments
        settings.profile = profile
        settings.targetLatencySeconds = targetLatencySeconds
        settings.liveDurationSeconds = liveDurationSeconds
        settings.warmupSeconds = warmupSeconds
        settings.warmupKbps = warmupKbps
        settings.catchup = catchup
        settings.catchupMinDriftSeconds = catchupMinDriftSeconds
        settings.maxBufferSeconds = maxBufferSeconds
        settings.noAbandon = noAbandon
        settings.checkEveryStep = checkEveryStep
        settings.replace = replace
        settings.bandwidthMultiplier = bandwidthMultiplier
        settings.estimator = estimator
        settings.qoe = qoe
        settings.gammaP = gammaP
        settings.rebufferPenalty = rebufferPenalty
        settings.smoothnessPenalty = smoothnessPenalty
        settings.switchPenalty = switchPenalty
        settings.traceFormat = traceFormat
        settings.mahimahiBinMilliseconds = mahimahiBinMilliseconds
        settings.params = params
        settings.paramGrid = paramGrid
        settings.seed = seed
        settings.luaInstructions = luaInstructions
        settings.luaMemoryMegabytes = luaMemoryMegabytes
        settings.verbose = verbose
        return settings
    }

    /// The video, its warnings printed.
    func resolveVideo() throws(InputError) -> Video {
        let (video, warnings) = try settings.resolveVideoWithWarnings()
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return video
    }
}
