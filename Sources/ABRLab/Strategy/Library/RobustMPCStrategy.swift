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
/// that comes later in lexicographic order. A depth-first search shares prefixes and skips
/// subtrees that provably cannot win, so large ladders (10⁵ sequences for 10 levels) stay cheap.
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
        let bandwidthMBps = harmonic / (1 + maxError)
        let depth = min(horizon, context.segmentCount - context.segmentIndex)
        var search = Search(
            context: context, bandwidthMBps: bandwidthMBps, depth: depth,
            firstSegment: context.segmentIndex + lookaheadOffset,
            rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty
        )
        if search.prunes { search.best = search.greedyReward(buffer: context.bufferSeconds, last: current) }
        search.explore(position: 0, buffer: context.bufferSeconds, rebuffer: 0, bitrateSum: 0, switches: 0, last: current)
        return search.bestFirst
    }

    /// The search over level sequences: depth-first, sharing prefixes, and skipping a subtree
    /// only when an optimistic bound on its best reward is below the best found so far. Equal
    /// rewards go to the lexicographically later sequence, as in Pensieve's flat enumeration, so
    /// the choice is exactly the exhaustive one.
    private struct Search {
        let kbps: [Double]
        let downloadSeconds: [[Double]]
        let depth: Int
        let segmentSeconds: Double
        let rebufferPenalty: Double
        let smoothnessPenalty: Double
        let prunes: Bool
        var best = -Double.greatestFiniteMagnitude
        var path: [Int]
        var bestPath: [Int]

        init(context: DecisionContext, bandwidthMBps: Double, depth: Int, firstSegment: Int, rebufferPenalty: Double, smoothnessPenalty: Double) {
            kbps = context.ladder.map(\.bitrateKbps)
            downloadSeconds = (0..<depth).map { position in
                (0..<context.levelCount).map { level in
                    (Double(context.sizeBytes(segment: firstSegment + position, level: level)) / 1_000_000) / bandwidthMBps
                }
            }
            self.depth = depth
            segmentSeconds = context.segmentDurationSeconds
            self.rebufferPenalty = rebufferPenalty
            self.smoothnessPenalty = smoothnessPenalty
            prunes = rebufferPenalty >= 0 && smoothnessPenalty >= 0
            path = Array(repeating: 0, count: depth)
            bestPath = Array(repeating: -1, count: depth)
        }

        var bestFirst: Int { bestPath.first.map { max($0, 0) } ?? 0 }

        mutating func explore(position: Int, buffer: Double, rebuffer: Double, bitrateSum: Double, switches: Double, last: Int) {
            if position == depth {
                let reward = bitrateSum / 1000 - rebufferPenalty * rebuffer - smoothnessPenalty * switches / 1000
                if reward > best || (reward == best && bestPath.lexicographicallyPrecedes(path)) {
                    best = reward
                    bestPath = path
                }
                return
            }
            if prunes, position > 0 {
                let sofar = bitrateSum / 1000 - rebufferPenalty * rebuffer - smoothnessPenalty * switches / 1000
                let bound = sofar + optimisticGain(from: position, buffer: buffer)
                if bound < best - 1e-9 * max(1, abs(best)) { return }
            }
            let times = downloadSeconds[position]
            // High levels first: good sequences early make the bound prune more.
            for level in stride(from: kbps.count - 1, through: 0, by: -1) {
                let download = times[level]
                var nextBuffer = buffer
                var nextRebuffer = rebuffer
                if nextBuffer < download {
                    nextRebuffer += download - nextBuffer
                    nextBuffer = 0
                } else {
                    nextBuffer -= download
                }
                nextBuffer += segmentSeconds
                path[position] = level
                explore(
                    position: position + 1, buffer: nextBuffer, rebuffer: nextRebuffer,
                    bitrateSum: bitrateSum + kbps[level], switches: switches + abs(kbps[level] - kbps[last]), last: level
                )
            }
        }

        /// The reward of the myopic sequence (each step the best single-step gain), summed exactly
        /// as `explore` sums along a path. It is a real sequence, so the optimum is at least this
        /// good: as the starting incumbent it lets the bound prune from the first node without
        /// changing the choice.
        func greedyReward(buffer start: Double, last start0: Int) -> Double {
            var buffer = start
            var last = start0
            var rebuffer = 0.0
            var bitrateSum = 0.0
            var switches = 0.0
            for position in 0..<depth {
                let times = downloadSeconds[position]
                var choice = 0
                var choiceValue = -Double.greatestFiniteMagnitude
                for level in 0..<kbps.count {
                    let value = kbps[level] / 1000 - rebufferPenalty * max(0, times[level] - buffer)
                        - smoothnessPenalty * abs(kbps[level] - kbps[last]) / 1000
                    if value > choiceValue {
                        choiceValue = value
                        choice = level
                    }
                }
                if buffer < times[choice] {
                    rebuffer += times[choice] - buffer
                    buffer = 0
                } else {
                    buffer -= times[choice]
                }
                buffer += segmentSeconds
                bitrateSum += kbps[choice]
                switches += abs(kbps[choice] - kbps[last])
                last = choice
            }
            return bitrateSum / 1000 - rebufferPenalty * rebuffer - smoothnessPenalty * switches / 1000
        }

        /// An upper bound on what positions `from…` can add: each step's best bitrate less the
        /// rebuffering it must cause even if the buffer grew by a full segment at every step.
        private func optimisticGain(from position: Int, buffer: Double) -> Double {
            var gain = 0.0
            var bufferCeiling = buffer
            for step in position..<depth {
                let times = downloadSeconds[step]
                var stepBest = -Double.greatestFiniteMagnitude
                for level in 0..<kbps.count {
                    let value = kbps[level] / 1000 - rebufferPenalty * max(0, times[level] - bufferCeiling)
                    stepBest = max(stepBest, value)
                }
                gain += stepBest
                bufferCeiling += segmentSeconds
            }
            return gain
        }
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
        let horizon = values.integer("horizon") ?? 5
        let firstLevel = values.integer("first_level") ?? 2
        let offset = values.integer("lookahead_offset") ?? 1
        let rebuffer = values.number("rebuffer_penalty") ?? 4.3
        let smoothness = values.number("smoothness_penalty") ?? 1
        // The range ctx:mpc_search takes: 10 levels over 10 segments is already 10^10 sequences.
        guard (1...10).contains(horizon) else {
            throw InputError(file: "--param", "parameter robust_mpc-native.horizon needs an integer from 1 to 10, not \(horizon)")
        }
        guard firstLevel >= 1 else {
            throw InputError(file: "--param", "parameter robust_mpc-native.first_level needs a level from 1, not \(firstLevel)")
        }
        guard offset >= 0 else {
            throw InputError(file: "--param", "parameter robust_mpc-native.lookahead_offset needs an integer from 0, not \(offset)")
        }
        return {
            RobustMPCStrategy(
                horizon: horizon, firstLevel: firstLevel - 1, lookaheadOffset: offset, rebufferPenalty: rebuffer, smoothnessPenalty: smoothness
            )
        }
    }
}
