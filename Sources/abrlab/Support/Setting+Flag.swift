import ABRLab

/// The one place the command line names the library's settings: each by the option that sets it.
extension Setting {
    var flag: String {
        switch self {
        case .profile: "--profile"
        case .qoe: "--qoe"
        case .param: "--param"
        case .shard: "--shard"
        case .out: "--out"
        case .resume: "--resume"
        case .segments: "--segments"
        case .video: "--video"
        case .noAbandon: "--no-abandon"
        case .checkEveryStep: "--check-every-step"
        case .replace: "--replace"
        case .estimator: "--estimator"
        case .gammaP: "--gamma-p"
        case .rebufferPenalty: "--rebuffer-penalty"
        case .smoothnessPenalty: "--smoothness-penalty"
        case .switchPenalty: "--switch-penalty"
        case .traceFormat: "--trace-format"
        case .mahimahiBinMs: "--mahimahi-bin-ms"
        case .luaInstructions: "--lua-instructions"
        case .luaMemoryMb: "--lua-memory-mb"
        case .paramGrid: "--param-grid"
        case .strategies: "--strategies"
        case .traces: "--traces"
        case .baseline: "--baseline"
        case .shardCount: "--shard-count"
        case .maxBufferS: "--max-buffer-s"
        case .bandwidthMultiplier: "--bandwidth-multiplier"
        case .targetLatencyS: "--target-latency-s"
        case .liveDurationS: "--live-duration-s"
        case .warmupS: "--warmup-s"
        case .warmupKbps: "--warmup-kbps"
        case .catchup: "--catchup"
        case .catchupMinDriftS: "--catchup-min-drift-s"
        case .ladderKbps: "--ladder-kbps"
        case .segmentDurationS: "--segment-duration-s"
        case .complexitySpread: "--complexity-spread"
        case .complexityCorrelation: "--complexity-correlation"
        case .levelNoise: "--level-noise"
        case .durationS: "--duration-s"
        case .stepS: "--step-s"
        case .minKbps: "--min-kbps"
        case .maxKbps: "--max-kbps"
        case .states: "--states"
        case .switchProbability: "--switch-probability"
        case .noise: "--noise"
        case .latencyMs: "--latency-ms"
        case .latencyJitterMs: "--latency-jitter-ms"
        case .outageProbability: "--outage-probability"
        case .outageMeanS: "--outage-mean-s"
        case .players: "--players"
        case .staggerS: "--stagger-s"
        case .mix: "--mix"
        case .share: "--share"
        case .weights: "--weights"
        }
    }
}

extension InputError {
    /// The line the command line prints: settings named by their options.
    var commandLineText: String { described(naming: \.flag) }
}

extension InputWarning {
    var commandLineText: String { described(naming: \.flag) }
}

extension EmulationError {
    var commandLineText: String { described(naming: \.flag) }
}
