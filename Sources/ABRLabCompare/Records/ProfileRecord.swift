import ABRLab

/// The resolved profile and QoE model as `run.json` records them and the plan fingerprint hashes
/// them: every parameter under an explicit key with its unit, never a Swift property's name, so
/// renaming a property changes neither the file nor the fingerprint.
public enum ProfileRecord {
    public static func value(of profile: EmulationProfile) -> PrettyJSON.Value {
        var fields: [(String, PrettyJSON.Value)] = [
            ("name", .string(profile.name)),
            ("max_buffer_s", number(profile.maxBufferSeconds)),
            ("segments_to_play", profile.segmentsToPlay.map(PrettyJSON.Value.integer) ?? .null),
            ("max_session_s", number(profile.maxSessionSeconds)),
            ("max_session_steps", .integer(profile.maxSessionSteps)),
            ("estimator", profile.estimator.map { .string($0.description) } ?? .null),
        ]
        switch profile.mechanics {
        case .wholeTransfers(let settings):
            fields.append(("mechanics", .object([
                ("model", .string("whole_transfers")),
                ("payload_fraction", number(settings.payloadFraction)),
                ("latency", latency(settings.latency)),
                ("latency_consumes_trace_time", .boolean(settings.latencyConsumesTraceTime)),
                ("buffer_wait_step_s", number(settings.bufferWaitStepSeconds)),
                ("startup_threshold_s", number(settings.startupThresholdSeconds)),
                ("startup_counts_as_rebuffer", .boolean(settings.startupCountsAsRebuffer)),
            ])))
        case .segmentBuffer(let settings):
            var mechanics: [(String, PrettyJSON.Value)] = [
                ("model", .string("segment_buffer")),
                ("fallback_latency_s", number(settings.fallbackLatencySeconds)),
                ("abandonment", .boolean(settings.abandonment)),
                ("honours_rechecks", .boolean(settings.honoursRechecks)),
                ("replace", .string(settings.replacement.rawValue)),
                ("bandwidth_multiplier", number(settings.bandwidthMultiplier)),
                ("ramp_up_level", settings.rampUpLevel.map(PrettyJSON.Value.integer) ?? .null),
            ]
            // Listed only when not Sabre's, so `sabre`'s run.json and fingerprint keep their bytes.
            if settings.player != .sabre { mechanics.append(("player", .string(settings.player.rawValue))) }
            fields.append(("mechanics", .object(mechanics)))
        case .live(let settings):
            let minDrift: PrettyJSON.Value = if case .dashjs3(let seconds) = settings.catchUpRule { number(seconds) } else { .null }
            fields.append(("mechanics", .object([
                ("model", .string("live")),
                ("target_latency_s", number(settings.targetLatencySeconds)),
                ("live_duration_s", settings.durationSeconds.map(number) ?? .null),
                ("chunk_s", number(settings.chunkSeconds)),
                ("catchup", .boolean(settings.catchUp)),
                ("catchup_rule", .string(settings.catchUpRule.name)),
                ("catchup_min_drift_s", minDrift),
                ("catchup_rate_min", number(settings.catchUpRateMin)),
                ("catchup_rate_max", number(settings.catchUpRateMax)),
                ("max_drift_s", number(settings.maxDriftSeconds)),
                ("payload_fraction", number(settings.payloadFraction)),
                ("latency", latency(settings.latency)),
                ("latency_consumes_trace_time", .boolean(settings.latencyConsumesTraceTime)),
                ("startup_threshold_s", number(settings.startupThresholdSeconds)),
                ("warmup_s", settings.warmup.map { number($0.seconds) } ?? .null),
                ("warmup_kbps", settings.warmup.map { number($0.linkKbps) } ?? .null),
            ])))
        }
        return .object(fields)
    }

    /// A built-in QoE model's every weight.
    public static func value(of model: QoEModel) -> PrettyJSON.Value {
        .object([
            ("kind", .string(model.kind.rawValue)),
            ("rebuffer_penalty", number(model.rebufferPenalty)),
            ("smoothness_penalty", number(model.smoothnessPenalty)),
            ("hd_utilities", .array(model.hdUtilities.map(number))),
            ("gamma_p", number(model.gammaP)),
        ])
    }

    /// The value's JSON text, keys sorted as `run.json` writes them, for the fingerprint.
    public static func text(_ value: PrettyJSON.Value) -> String {
        var bytes: [UInt8] = []
        PrettyJSON.append(value, indent: 0, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func number(_ value: Double) -> PrettyJSON.Value { .encoded(Array(SettingValue.number(value).json.utf8)) }

    private static func latency(_ latency: EmulationProfile.Latency) -> PrettyJSON.Value {
        switch latency {
        case .fixed(let seconds): .object([("fixed_s", number(seconds))])
        case .trace(let fallbackSeconds): .object([("from_trace_fallback_s", number(fallbackSeconds))])
        }
    }
}
