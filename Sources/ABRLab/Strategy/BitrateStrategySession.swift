/// Plays a session with a seed-protocol ``BitrateStrategy``.
///
/// Before the first segment it asks for the initial bitrate; before every later one it runs the
/// seed's monitoring step (``BitrateStrategy/decision(currentBitrate:bufferHealth:rebufferingRatio:networkQuality:availableLevels:)``)
/// with buffer health = buffer / `bufferTargetSeconds`, rebuffering ratio = stall time / time
/// since playback started, and the network quality of the trace's path when known, else the
/// estimator's. Bitrates map back to the nearest level at or below them.
public struct BitrateStrategySession<Strategy: BitrateStrategy>: SessionStrategy {
    public enum QualitySource: Sendable {
        /// The seed estimator fed by the session's downloads.
        case estimator
        /// The trace's path classification when the trace has one, else the estimator.
        case pathWhenKnown
    }

    public let strategy: Strategy
    public let bufferTargetSeconds: Double
    public let qualitySource: QualitySource

    public init(strategy: Strategy, bufferTargetSeconds: Double = 30, qualitySource: QualitySource = .pathWhenKnown) {
        self.strategy = strategy
        self.bufferTargetSeconds = bufferTargetSeconds
        self.qualitySource = qualitySource
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
        let quality = qualitySource == .pathWhenKnown ? context.pathQuality ?? context.networkQuality : context.networkQuality
        guard let last = context.lastLevel else {
            return Self.level(for: strategy.initialBitrate(for: quality, availableLevels: context.ladder), in: context.ladder)
        }
        let current = context.ladder[last].bitrate
        let decision = strategy.decision(
            currentBitrate: current,
            bufferHealth: context.bufferSeconds / bufferTargetSeconds,
            rebufferingRatio: context.rebufferingRatio,
            networkQuality: quality,
            availableLevels: context.ladder
        )
        return Self.level(for: decision.bitrate(from: current), in: context.ladder)
    }

    /// Highest level whose bitrate does not exceed `bitrate`; the lowest when all do.
    static func level(for bitrate: Int, in ladder: [BitrateLevel]) -> Int {
        ladder.lastIndex { $0.bitrate <= bitrate } ?? 0
    }
}

extension StrategyDescriptor {
    /// The seed's Conservative strategy, id `conservative`; its thresholds are parameters with
    /// the seed's defaults, named as in `Strategies/conservative.lua`.
    public static let conservative = StrategyDescriptor(
        id: "conservative",
        name: "Conservative (seed)",
        description: "The seed default: starts by network quality, steps up one level on a good network with a healthy buffer, steps down on stalls or a poor network.",
        params: [
            StrategyParam(key: "buffer_health_threshold", value: .number(0.7), summary: "buffer health (fraction of the 30 s target) needed to step up"),
            StrategyParam(key: "rebuffering_threshold", value: .number(0.05), summary: "rebuffering ratio that forces a step down"),
        ]
    ) { values throws(InputError) in
        let health = values.declaredNumber("buffer_health_threshold")
        let rebuffering = values.declaredNumber("rebuffering_threshold")
        let strategy = ConservativeBitrateStrategy(bufferHealthThreshold: health, rebufferingThreshold: rebuffering)
        return { BitrateStrategySession(strategy: strategy) }
    }
}
