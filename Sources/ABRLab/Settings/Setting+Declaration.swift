/// The settings table: every setting declared once, in the core so the engine checks its values
/// by the same declarations (``Setting/check(_:)``), with the same messages. The command line's options take their flag
/// and help from it, Python its keywords, kinds and defaults (through the C interface's
/// `abrlab_settings_json`), validation its ranges, docs/settings.md its rows, and `run.json` and
/// the plan fingerprint its keys. Adding a setting is a case of ``Setting``, its entry here, and
/// the code that uses it (docs/architecture.md).
extension Setting {
    /// This setting's entry in the table.
    public var declaration: SettingDeclaration { Self.declarations[index] }

    /// Python's keyword: the key, but `params` for `param`, which takes a dict of them.
    public var pythonKeyword: String { self == .param ? "params" : rawValue }

    /// The command line's option: `--` and the key with `-` for `_`, the one rule every flag
    /// follows (Python's table names it, so its docs can say what compare calls a keyword).
    public var flag: String { "--" + rawValue.replacingOccurrences(of: "_", with: "-") }

    /// The setting's place in the table (and in `run.json`'s `settings`).
    public var index: Int { Self.indices[self]! }

    private static let declarations: [SettingDeclaration] = allCases.map(\.entry)
    private static let indices: [Setting: Int] = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    private var entry: SettingDeclaration {
        typealias D = SettingDeclaration
        let session = D.sessionCommands
        let live = D.Mechanics.live
        let sabre = D.Mechanics.segmentBuffer
        // A day: the session limit, past which no length of a session can go.
        let day = EmulationProfile.defaultMaxSessionSeconds
        switch self {
        case .profile: return D(.choice(EmulationProfile.builtIn.map(\.name)), default: .value(.text("default")), commands: session, valueName: "name", help: "Emulation profile: default, pensieve, sabre, live, twitch-challenge or dashjs.", elsewhere: ["strategies check": .init(default: .none("default, sabre and live"), help: "Also check under this profile, beside default, sabre and live (dashjs for the dash.js rule sets).")])
        case .video: return D(.path, default: .value(.text("Traces/video.json")), commands: session, valueName: "spec", help: "Video: a Sabre manifest (.json), an HLS master playlist (.m3u8), a static DASH MPD (.mpd), a folder of Pensieve video_size_N files, a preset (standard, pensieve-cbr, twitch-ll, audio) or a CBR spec such as cbr:300,750,1200@4s.")
        case .traces: return D(.paths, default: .value(.texts(["Traces/default"])), commands: ["compare", "python"], valueName: "path", help: "Trace files, folders (searched recursively) or glob patterns; a shipped set of Traces/ by its name (3g).")
        case .ladderKbps: return D(.numbers(.kbps), default: .none("the video's; Pensieve's for a folder of six video_size files"), range: .positiveUpTo(D.maximumKbps), commands: session, valueName: "kbps,...", help: "Ladder for videos given as bare size files, e.g. 300,750,1200,1850,2850,4300; required for a video_size folder of other than six levels.", elsewhere: [
            "videos generate": .init(default: .value(.numbers([300, 750, 1200, 1850, 2850, 4300])), help: "Distinct ascending bitrates of the generated video."),
            "videos import": .init(default: .none("none"), help: "Level folders only: their bitrates, ascending."),
        ])
        case .segmentDurationS: return D(.number(.seconds), default: .none("the video's; Pensieve's 4 s for a video_size folder"), range: .positiveUpTo(Video.maximumSegmentSeconds), commands: session, help: "Segment duration for videos given as bare size files.", elsewhere: [
            "videos generate": .init(default: .value(.number(4)), help: "Segment duration of the generated video."),
            "videos import": .init(default: .none("none"), help: "Level folders only: segment duration."),
        ])
        case .segments: return D(.integer(.segments), default: .none("the profile's count, else the whole video"), range: .closed(1, Double(Video.maximumSizeCount)), commands: session, valueName: "n", help: "Segments each session plays.", elsewhere: ["videos generate": .init(default: .value(.integer(48)), help: "Segments of the generated video (segments × levels at most 10 million).")])
        case .firstLevel: return D(.integer(.none), default: .none("each strategy's own"), range: .closed(1, Double(Video.maximumSizeCount)), commands: session, valueName: "level", help: "1-based level of every session's first segment, played without asking the strategy (as Pensieve's harness plays its DEFAULT_QUALITY), so every strategy starts alike.")
        case .maxBufferS: return D(.number(.seconds), default: .none("the profile's (60; 25 on sabre; 30 on dashjs)"), range: .positiveUpTo(day), commands: session, help: "Maximum buffer, overriding the profile's.")
        case .targetLatencyS: return D(.number(.seconds), default: .none("1.5"), range: .positiveUpTo(day), mechanics: live, commands: session, help: "Live latency the player joins at and catches up to.")
        case .liveDurationS: return D(.number(.seconds), default: .none("one pass of the trace"), range: .positiveUpTo(day), mechanics: live, commands: session, help: "Media each live session plays.")
        case .warmupS: return D(.number(.seconds), default: .none("none"), range: .closed(0, day), mechanics: live, commands: session, help: "Live warm-up before the trace's pattern: its rows count in no score and the pattern plays to its end (docs/live.md).")
        case .warmupKbps: return D(.number(.kbps), default: .none("3000"), range: .positive, mechanics: live, commands: session, help: "Rate of the live warm-up's link.")
        case .catchup: return D(.choice(["dashjs5", "dashjs3"]), default: .none("dashjs5"), mechanics: live, commands: session, valueName: "dashjs5|dashjs3", help: "Live catch-up of dash.js 5 or of dash.js 3.0.1, as the Twitch challenge ran it (docs/live.md).")
        case .catchupMinDriftS: return D(.number(.seconds), default: .none("0.02"), range: .closed(0, day), mechanics: live, commands: session, help: "dash.js 3.0.1's liveCatchUpMinDrift: drift within which the rate stays 1 (dashjs3 catch-up).")
        case .noAbandon: return D(.flag, default: .value(.flag(false)), mechanics: sabre, commands: session, help: "Turn off abandonment checks.")
        case .checkEveryStep: return D(.flag, default: .value(.flag(false)), mechanics: sabre, commands: session, help: "Call abandonment checks at every progress step, ignoring the rechecks they ask for (verifies a strategy's rechecks: results must not change).")
        case .replace: return D(.choice(EmulationProfile.Replacement.allCases.map(\.rawValue)), default: .value(.text("none")), mechanics: sabre, commands: session, valueName: "rule", help: "Replace buffered segments: none, left or right.")
        case .bandwidthMultiplier: return D(.number(.none), default: .value(.number(1)), range: .positive, mechanics: sabre, commands: session, help: "Scale every trace's bandwidth (Sabre's -nm).")
        case .estimator: return D(.text, default: .none("ewma:3,8; none on pensieve"), commands: session, valueName: "spec", help: "Throughput estimate offered to strategies: ewma:H,... (half-lives, s), sliding:W,... (windows, segments) or none.")
        case .qoe: return D(.text, default: .value(.text("linear")), commands: session, valueName: "model", help: "QoE model: linear, log, hd, sabre, nqoe (live), or a Lua model script (docs/qoe.md).")
        case .gammaP: return D(.number(.none), default: .none("5"), range: .nonNegative, commands: session, help: "Sabre's γp: rebuffer weight of the sabre QoE model and of the time_avg_score column.")
        case .rebufferPenalty: return D(.number(.none), default: .none("4.3 linear, 2.66 log, 8 hd"), range: .nonNegative, commands: session, help: "QoE penalty per second of rebuffering.")
        case .smoothnessPenalty: return D(.number(.none), default: .value(.number(1)), range: .nonNegative, commands: session, help: "QoE penalty per unit of utility switched between segments.")
        case .switchPenalty: return D(.number(.none), default: .none("0.02"), range: .nonNegative, commands: session, help: "NQoE's µ: penalty per kbps of bitrate change between segments (nqoe model).")
        case .traceFormat: return D(.choice(["pensieve", "sabre", "mahimahi", "csv"]), default: .none("detected"), commands: session, valueName: "format", help: "Read traces as this format instead of detecting it.", elsewhere: [
            "traces info": .init(default: .none("detected"), help: "Read traces as this format instead of detecting it."),
            "traces convert": .init(default: .none("detected"), help: "Read traces as this format instead of detecting it."),
        ])
        case .mahimahiBinMs: return D(.integer(.milliseconds), default: .value(.integer(1000)), range: .closed(1, Double(Int32.max)), commands: session, help: "Bin width for Mahimahi traces.")
        case .param: return D(.texts, default: .none("none"), commands: session, valueName: "id.key=value", help: "Set a strategy parameter, native or Lua, e.g. robust_mpc.horizon=3 (repeatable, once per key); a list, e.g. bola.gp=3,5,8, sweeps it in compare. Python: a dict {\"id.key\": value}.", elsewhere: ["strategies check": .init(default: .none("none"), help: "Override a parameter of the checked strategies, e.g. bola.gp=5 (repeatable, once per key).")])
        case .paramGrid: return D(.path, default: .none("none"), commands: session, faces: .commandLineOnly(why: "a sweep's rows are compare's; an environment plays one setting"), valueName: "file", help: "A CSV file of parameter settings: a header of id.key columns, then one setting per line (a strategy's cells all filled or all empty; # comments); each setting runs as its own row in compare.")
        case .seed: return D(.seed, default: .value(.seed(1)), commands: session, help: "Seed for strategies' randomness and the bootstrap intervals; in Python, the first reset's.", elsewhere: [
            "videos generate": .init(default: .value(.seed(1)), help: "Seed of the generated sizes."),
            "traces generate": .init(default: .value(.seed(1)), help: "First seed: trace i of --count uses seed + i."),
        ])
        case .luaInstructions: return D(.integer(.instructions), default: .value(.integer(10_000_000)), range: .positive, commands: session, help: "Lua VM instructions one strategy call may run.")
        case .luaMemoryMb: return D(.integer(.mebibytes), default: .value(.integer(32)), range: .closed(1, 1_048_576), commands: session, help: "Memory cap of each Lua engine.")
        case .verbose: return D(.flag, default: .value(.flag(false)), commands: session, faces: .commandLineOnly(why: "tracebacks and prints go to stderr; Python raises with the message"), help: "Show Lua tracebacks and let scripts print to stderr.", elsewhere: ["strategies check": .init(default: .value(.flag(false)), help: "Show Lua tracebacks and let the script print to stderr.")])
        case .strategyId: return D(.text, default: .value(.text("env")), commands: ["python"], faces: .pythonOnly(why: "the agent is the strategy; compare names scripts in --strategies"), help: "The id the agent's sessions carry in records.")
        case .dashjsRecords: return D(.flag, default: .value(.flag(false)), commands: ["compare"], faces: .commandLineOnly(why: "a file in the run's output folder"), help: "Also write dashjs-records.jsonl: the dashjs strategies' dash.js 5.1.1 decision records (../shared/specs/dashjs.md section E), one per decision, abandonment check and (live) catch-up evaluation, each with abrlab's answer under \"abrlab\"; replay.mjs reads them (docs/dashjs.md).")
        case .experts: return D(.texts, default: .none("none"), commands: ["python"], faces: .pythonOnly(why: "strategies that follow each session and answer what they would choose; compare plays them as rows"), help: "Strategies (ids or scripts) whose choices each step reports.")
        case .strategies: return D(.texts, default: .none("every script in Strategies/ and conservative"), commands: ["compare"], faces: .commandLineOnly(why: "an environment's agent plays; experts follow it"), valueName: "strategy", help: "Lua scripts, folders of them, native ids and ids of scripts in Strategies/.")
        case .baseline: return D(.text, default: .none("none"), commands: ["compare"], faces: .commandLineOnly(why: "a ranked table's comparison"), valueName: "strategy", help: "Strategy to compare the others against, trace by trace (an id, script or native id); added to the strategies when absent.")
        case .out: return D(.path, default: .value(.text("results")), commands: ["compare"], faces: .commandLineOnly(why: "a run's output folder"), help: "Output folder, owned by the run.")
        case .resume: return D(.flag, default: .value(.flag(false)), commands: ["compare"], faces: .commandLineOnly(why: "a run's output folder"), help: "Continue the interrupted run in --out with the same arguments, redoing only work not yet checkpointed.")
        case .jobs: return D(.integer(.threads), default: .none("the number of cores"), range: .closed(1, 1024), commands: ["compare"], faces: .commandLineOnly(why: "how a run is executed; results are the same whatever it is"), help: "Worker threads.", elsewhere: ["reproduce": .init(default: .none("the number of cores"), help: "Worker threads of each comparison run.")])
        case .rankBy: return D(.choice(["mean", "median"]), default: .value(.text("mean")), commands: ["compare"], faces: .commandLineOnly(why: "a ranked table's order"), valueName: "mean|median", help: "Rank strategies by their mean or median session QoE.")
        case .table: return D(.choice(["text", "json"]), default: .value(.text("text")), commands: ["compare", "merge"], faces: .commandLineOnly(why: "how the ranked table is printed"), valueName: "text|json", help: "How the ranked table is printed: text, or json (the contents of ranked.json).")
        case .segmentsFormat: return D(.choice(["csv", "csv.gz", "csv.zst", "none"]), default: .value(.text("csv")), commands: ["compare"], faces: .commandLineOnly(why: "a run's output files"), valueName: "format", help: "segments.csv as csv, csv.gz (segments.csv.gz), csv.zst (segments.csv.zst) or none.")
        case .checkpointS: return D(.number(.seconds), default: .value(.number(2)), range: .closed(0, day), commands: ["compare"], faces: .commandLineOnly(why: "how a run is executed"), help: "Seconds between checkpoints of finished work (each syncs the output files to disk).")
        case .shard: return D(.text, default: .none("from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set"), commands: ["compare"], faces: .commandLineOnly(why: "how a run is executed"), valueName: "K/N", help: "Run only shard K of N (K from 0), a contiguous range of traces balanced by segments to play; merge the shards' folders with abrlab merge.")
        case .shardCount: return D(.integer(.none), default: .none("Slurm's task count"), range: .positive, commands: ["compare"], faces: .commandLineOnly(why: "how a run is executed"), help: "Number of shards when the index comes from JOB_COMPLETION_INDEX (or overrides Slurm's task count).")
        case .players: return D(.integer(.players), default: .value(.integer(1)), range: .closed(1, 1024), commands: ["compare"], faces: .commandLineOnly(why: "an environment plays one player per session"), valueName: "N", help: "Play each strategy row on each trace as a group of N players sharing the trace's link (profiles default and sabre; docs/shared-link.md); adds groups.csv and group, player columns.")
        case .staggerS: return D(.number(.seconds), default: .value(.number(0)), range: .nonNegative, commands: ["compare"], faces: .commandLineOnly(why: "a group's"), valueName: "S", help: "Seconds between the starts of a group's players: player k starts at (k-1)*S.")
        case .mix: return D(.texts, default: .none("one each"), commands: ["compare"], faces: .commandLineOnly(why: "a group's"), valueName: "A,B,...", help: "Instead of strategy rows, one group per trace whose players take these strategies in turn (ids or scripts, comma-separated), repeated up to --players.")
        case .share: return D(.choice(LinkShare.Mode.allCases.map(\.rawValue)), default: .value(.text("equal")), commands: ["compare"], faces: .commandLineOnly(why: "a group's"), valueName: "equal|weighted", help: "How a group's link is divided among its players in a data phase: equally, or in proportion to --weights.")
        case .weights: return D(.numbers(.none), default: .none("equal"), range: .positive, commands: ["compare"], faces: .commandLineOnly(why: "a group's"), valueName: "w1,w2,...", help: "With --share weighted: the players' weights, comma-separated; player k takes the k-th, the list repeated up to --players as --mix is.")
        case .durationS: return D(.number(.seconds), default: .none("the preset's (300)"), range: .positiveUpTo(day), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files; an environment reads them"), help: "Length of each trace (at most 86400).")
        case .stepS: return D(.number(.seconds), default: .none("the preset's (1)"), range: .positive, commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Length of each period (0.001 to the duration, at most 10 million periods).")
        case .minKbps: return D(.number(.kbps), default: .none("the preset's"), range: .positive, commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Lowest state's bandwidth (0 < min ≤ max ≤ 1e9).")
        case .maxKbps: return D(.number(.kbps), default: .none("the preset's"), range: .positive, commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Highest state's bandwidth.")
        case .states: return D(.integer(.states), default: .none("the preset's"), range: .closed(1, 1000), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Bandwidth states, 1 to 1000.")
        case .switchProbability: return D(.number(.none), default: .none("the preset's"), range: .closed(0, 1), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Chance per step of moving to a neighbouring state, 0 to 1.")
        case .quiet: return D(.flag, default: .value(.flag(false)), commands: ["compare"], faces: .commandLineOnly(why: "what a run prints; an environment prints nothing"), help: "Print only errors and warnings: no progress bar, table or closing line.", elsewhere: [
            "merge": .init(default: .value(.flag(false)), help: "Print only errors and warnings: no table or closing line."),
        ])
        case .bufferTimeline: return D(.flag, default: .value(.flag(false)), commands: ["compare"], faces: .commandLineOnly(why: "an output file of compare; an environment writes none"), help: "Also write buffer_timeline.csv: every session's buffer indicator sampled at 10 Hz.")
        case .noise: return D(.number(.none), default: .none("the preset's"), range: .closed(0, 10), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Relative Gaussian noise, 0 to 10.")
        case .latencyMs: return D(.number(.milliseconds), default: .none("none"), range: .closed(0, 60_000), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Latency written into the trace, 0 to 60000.")
        case .latencyJitterMs: return D(.number(.milliseconds), default: .none("the preset's"), range: .closed(0, 60_000), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Standard deviation of the latency, 0 to 60000.")
        case .outageProbability: return D(.number(.none), default: .none("the preset's"), range: .closed(0, 1), commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Chance per step of an outage starting, 0 to 1.")
        case .outageMeanS: return D(.number(.seconds), default: .none("the preset's"), range: .positive, commands: ["traces generate"], faces: .commandLineOnly(why: "writes trace files"), help: "Mean outage length (positive, at most 10 million steps).")
        // A spread of 2 (a log's standard deviation) makes a segment e² ≈ 7 times its mean one time in six.
        case .complexitySpread: return D(.number(.none), default: .value(.number(0.25)), range: .closed(0, 2), commands: ["videos generate"], faces: .commandLineOnly(why: "writes a video manifest"), help: "Standard deviation of the log of scene complexity, 0 to 2.")
        case .complexityCorrelation: return D(.number(.none), default: .value(.number(0.7)), range: .closed(0, 1), commands: ["videos generate"], faces: .commandLineOnly(why: "writes a video manifest"), help: "Correlation of complexity between consecutive segments, 0 to 1.")
        case .levelNoise: return D(.number(.none), default: .value(.number(0.05)), range: .closed(0, 2), commands: ["videos generate"], faces: .commandLineOnly(why: "writes a video manifest"), help: "Standard deviation of the per-level log noise, 0 to 2.")
        }
    }
}

extension SettingDeclaration {
    /// Highest bandwidth or bitrate a setting may give, kbps (1 Tbit/s): the generators' and
    /// the ladders' ceiling.
    public static let maximumKbps = 1e9

    /// The commands that emulate sessions with the shared experiment settings, and Python's
    /// environments.
    public static let sessionCommands = ["compare", "run", "replay", "export hls", "python"]

    /// Every setting a session reads, in the table's order: `run.json`'s `settings`, the plan
    /// fingerprint and Python's keywords come from these.
    public static let sessionSettings: [Setting] = Setting.allCases.filter { $0.declaration.commands.contains("python") || $0.declaration.commands == sessionCommands }
}
