import ABRLab
import ABRLabCompare
import Foundation

/// The keyword arguments of `gymnasium.make("abrlab/ABR-v0", ...)`, as Python sends them: one
/// JSON object, named as `abrlab compare`'s options with `_` for `-`.
struct EnvOptions: Decodable {
    var profile: String?
    var video: String?
    var traces: [String]?
    var qoe: String?
    var segments: Int?
    var ladder_kbps: [Double]?
    var segment_duration_s: Double?
    var max_buffer_s: Double?
    var target_latency_s: Double?
    var live_duration_s: Double?
    var no_abandon: Bool?
    var bandwidth_multiplier: Double?
    var rebuffer_penalty: Double?
    var smoothness_penalty: Double?
    var gamma_p: Double?
    var switch_penalty: Double?
    var trace_format: String?
    var mahimahi_bin_ms: Int?
    var seed: UInt64?
    var strategy_id: String?
    var estimator: String?
    var lua_instructions: Int?
    var lua_memory_mb: Int?
    var experts: [String]?
    var params: [String]?

    /// Every key the decoder reads; any other key is refused rather than ignored.
    static let keys: Set<String> = [
        "profile", "video", "traces", "qoe", "segments", "ladder_kbps", "segment_duration_s", "max_buffer_s",
        "target_latency_s", "live_duration_s", "no_abandon", "bandwidth_multiplier", "rebuffer_penalty",
        "smoothness_penalty", "gamma_p", "switch_penalty", "trace_format", "mahimahi_bin_ms", "seed", "strategy_id",
        "estimator", "lua_instructions", "lua_memory_mb", "experts", "params",
    ]

    /// The settings `abrlab compare` would run with: one resolver for both front ends.
    var settings: ExperimentSettings {
        var settings = ExperimentSettings()
        if let video { settings.video = video }
        settings.ladderKbps = ladder_kbps.map { $0.map { String($0) }.joined(separator: ",") }
        settings.segmentDurationSeconds = segment_duration_s
        settings.segments = segments.map(String.init)
        if let profile { settings.profile = profile }
        settings.targetLatencySeconds = target_latency_s
        settings.liveDurationSeconds = live_duration_s
        settings.maxBufferSeconds = max_buffer_s
        settings.noAbandon = no_abandon ?? false
        if let bandwidth_multiplier { settings.bandwidthMultiplier = bandwidth_multiplier }
        settings.estimator = estimator
        if let qoe { settings.qoe = qoe }
        settings.gammaP = gamma_p
        settings.rebufferPenalty = rebuffer_penalty
        if let smoothness_penalty { settings.smoothnessPenalty = smoothness_penalty }
        settings.switchPenalty = switch_penalty
        settings.traceFormat = trace_format
        if let mahimahi_bin_ms { settings.mahimahiBinMilliseconds = mahimahi_bin_ms }
        if let seed { settings.seed = seed }
        if let lua_instructions { settings.luaInstructions = lua_instructions }
        if let lua_memory_mb { settings.luaMemoryMegabytes = lua_memory_mb }
        settings.params = params ?? []
        return settings
    }

    static func parse(_ json: String) throws(EnvError) -> EnvOptions {
        let data = Data(json.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .invalid("options: not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .invalid("unknown option '\(unknown)'; options are \(keys.sorted().joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(EnvOptions.self, from: data)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.first?.stringValue ?? "options"
            throw .invalid("option \(key) has the wrong type")
        } catch {
            throw .invalid("options: \(error)")
        }
    }
}
