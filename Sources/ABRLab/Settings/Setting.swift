/// A setting of a run that the library checks, by its key: the name a configuration (or a
/// Python keyword) gives it. Errors about a setting name it by this case, and each front end
/// says it in its own words: the command line as `--` and the key with `-` for `_`, Python as the
/// key. Each case is declared once, as data, in `Setting.declaration` (ABRLabCompare).
public enum Setting: String, CaseIterable, Sendable, CustomStringConvertible {
    case profile
    case qoe
    case param
    case shard
    case out
    case resume
    case segments
    case firstLevel = "first_level"
    case video
    case noAbandon = "no_abandon"
    case checkEveryStep = "check_every_step"
    case replace
    case estimator
    case gammaP = "gamma_p"
    case rebufferPenalty = "rebuffer_penalty"
    case smoothnessPenalty = "smoothness_penalty"
    case switchPenalty = "switch_penalty"
    case traceFormat = "trace_format"
    case mahimahiBinMs = "mahimahi_bin_ms"
    case luaInstructions = "lua_instructions"
    case luaMemoryMb = "lua_memory_mb"
    case paramGrid = "param_grid"
    case strategies
    case traces
    case baseline
    case shardCount = "shard_count"
    case maxBufferS = "max_buffer_s"
    case bandwidthMultiplier = "bandwidth_multiplier"
    case targetLatencyS = "target_latency_s"
    case liveDurationS = "live_duration_s"
    case warmupS = "warmup_s"
    case warmupKbps = "warmup_kbps"
    case catchup
    case catchupMinDriftS = "catchup_min_drift_s"
    case ladderKbps = "ladder_kbps"
    case segmentDurationS = "segment_duration_s"
    case complexitySpread = "complexity_spread"
    case complexityCorrelation = "complexity_correlation"
    case levelNoise = "level_noise"
    case durationS = "duration_s"
    case stepS = "step_s"
    case minKbps = "min_kbps"
    case maxKbps = "max_kbps"
    case states
    case switchProbability = "switch_probability"
    case noise
    case latencyMs = "latency_ms"
    case latencyJitterMs = "latency_jitter_ms"
    case outageProbability = "outage_probability"
    case outageMeanS = "outage_mean_s"
    case players
    case staggerS = "stagger_s"
    case mix
    case share
    case weights
    case seed
    case verbose
    case jobs
    case rankBy = "rank_by"
    case table
    case segmentsFormat = "segments_format"
    case checkpointS = "checkpoint_s"
    case strategyId = "strategy_id"
    case experts
    case dashjsRecords = "dashjs_records"
    case quiet
    case bufferTimeline = "buffer_timeline"

    /// The key.
    public var description: String { rawValue }
}
