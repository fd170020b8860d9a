/// RobustMPC as Pensieve's `sim/mpc.py` implements it.
///
/// Yin et al., "A Control-Theoretic Approach for Dynamic Adaptive Video Streaming over HTTP",
/// SIGCOMM 2015, doi:10.1145/2785956.2787486; baseline code of Mao et al., SIGCOMM 2017,
/// doi:10.1145/3098822.3098843.
///
/// Each download gives a throughput sample (bytes / delay, latency included). The prediction is
/// the harmonic mean of the last five samples divided by one plus the largest of the last five
/// relative errors of earlier predictions. Over a horizon of up to five segments, every level
/// sequence is scored by bitrate minus 4.3 × predicted rebuffering minus switches (from the
/// current level) and the first level of the best sequence is played; ties go to the sequence
/// that comes later in lexicographic order. ``MPCSearch`` runs the search, the same one Lua
/// scripts call as `ctx:mpc_search`.
public struct RobustMPCStrategy: SessionStrategy, Sendable {
    public var horizon: Int
    /// 0-based level of the first segment.
    public var firstLevel: Int
    /// Segments past the one being chosen whose sizes the search reads first. Pensieve reads
    /// them one segment ahead, and 1, the default, reproduces it; 0 reads the segments being
    /// chosen, as Yin et al. describe.
    public var lookaheadOffset: Int
    public var rebufferPenalty: Double
    public var smoothnessPenalty: Double

    private var samples: [Double] = []
    private var errors: [Double] = []
    private var lastPrediction: Double?

    public init(horizon: Int = 5, firstLevel: Int = 1, lookaheadOffset: Int = 1, rebufferPenalty: Double = 4.3, smoothnessPenalty: Double = 1) {
        self.horizon = horizon
        self.firstLevel = firstLevel
        self.lookaheadOffset = lookaheadOffset
        self.rebufferPenalty = rebufferPenalty
        self.smoothnessPenalty = smoothnessPenalty
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        // Pensieve's sample: kilobytes per millisecond, i.e. megabytes per second.
        let sample = Double(record.sizeBytes) / (record.downloadTimeSeconds * 1000) / 1000
        errors.append(lastPrediction.map { abs($0 - sample) / sample } ?? 0)
        samples.append(sample)
        let recent = samples.suffix(5)
        let harmonic = 1 / (recent.reduce(0) { $0 + 1 / $1 } / Double(recent.count))
        lastPrediction = harmonic
    }

    public func chooseLevel(_ context: DecisionContext) -> Int {
        guard let current = context.lastLevel, let harmonic = lastPrediction else {
            return min(firstLevel, context.levelCount - 1)
        }
        let maxError = errors.suffix(5).max() ?? 0
        let search = MPCSearch(
            levelsKbps: context.ladder.map(\.bitrateKbps), segmentSeconds: context.segmentDurationSeconds,
            rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty
        )
        return search.firstLevel(
            depth: min(horizon, context.segmentCount - context.segmentIndex), firstSegment: context.segmentIndex + lookaheadOffset,
            bandwidthMBps: harmonic / (1 + maxError), bufferSeconds: context.bufferSeconds, lastLevel: current,
            sizeBytes: context.sizeBytes
        )
    }
}

extension StrategyDescriptor {
    /// Native RobustMPC with Pensieve's look-ahead, id `robust_mpc-native`. Its parameters and
    /// their defaults are `Strategies/robust_mpc.lua`'s, levels 1-based as there.
    public static let robustMPC = StrategyDescriptor(
        id: "robust_mpc-native",
        name: "RobustMPC (native)",
        description: "RobustMPC as in Pensieve's sim/mpc.py: harmonic-mean prediction discounted by recent error, 5-segment exhaustive search.",
        params: [
            StrategyParam(key: "horizon", value: .integer(5), summary: "segments the search looks ahead (1 … 10)"),
            StrategyParam(key: "first_level", value: .integer(2), summary: "1-based level of the first segment"),
            StrategyParam(key: "lookahead_offset", value: .integer(1), summary: "segments past the one chosen whose sizes the search reads first; 1 is Pensieve's"),
            StrategyParam(key: "rebuffer_penalty", value: .number(4.3), summary: "QoE cost of a second of rebuffering"),
            StrategyParam(key: "smoothness_penalty", value: .number(1), summary: "QoE cost of a bitrate change, per Mbps"),
        ]
    ) { values throws(InputError) in
        let horizon = values.declaredInteger("horizon")
        let firstLevel = values.declaredInteger("first_level")
        let offset = values.declaredInteger("lookahead_offset")
        let rebuffer = values.declaredNumber("rebuffer_penalty")
        let smoothness = values.declaredNumber("smoothness_penalty")
        // The range ctx:mpc_search takes: 10 levels over 10 segments is already 10^10 sequences.
        guard (1...10).contains(horizon) else {
            throw InputError(setting: .param, "parameter robust_mpc-native.horizon needs an integer from 1 to 10, not \(horizon)")
        }
        guard firstLevel >= 1 else {
            throw InputError(setting: .param, "parameter robust_mpc-native.first_level needs a level from 1, not \(firstLevel)")
        }
        guard offset >= 0 else {
            throw InputError(setting: .param, "parameter robust_mpc-native.lookahead_offset needs an integer from 0, not \(offset)")
        }
        return {
            RobustMPCStrategy(
                horizon: horizon, firstLevel: firstLevel - 1, lookaheadOffset: offset, rebufferPenalty: rebuffer, smoothnessPenalty: smoothness
            )
        }
    }
}
