import Foundation

/// Sabre's BOLA (BOLA-U by default): Lyapunov buffer-based adaptation with a throughput cap on
/// up-switches and abandonment of downloads whose score a lower level beats;
/// `Strategies/sabre/bola.lua` in Swift, decision for decision.
///
/// Spiteri, Urgaonkar and Sitaraman, "BOLA: Near-Optimal Bitrate Adaptation for Online Videos",
/// IEEE INFOCOM 2016, doi:10.1109/INFOCOM.2016.7524428; as implemented in Sabre (Spiteri, Nguyen,
/// Sitaraman, ACM MMSys 2018, doi:10.1145/3204949.3204953). Times are in milliseconds as Sabre
/// keeps them.
public struct SabreBOLA: SessionStrategy, Sendable {
    /// γp, added to every utility.
    public var gp: Double
    /// BOLA-BASIC: a fixed Vp and no abandonment (Sabre's `-ab`).
    public var basic: Bool
    /// BOLA-O: up-switch to the throughput level and wait (Sabre's `-ao`).
    public var oscillation: Bool

    /// Also the keeper of the ladder and the segment duration.
    private var throughputRule = SabreThroughputRule()
    private var segmentMs: Double { throughputRule.segmentMs }
    private var bitratesKbps: [Double] { throughputRule.bitratesKbps }
    private var segmentCount = 0
    private var capacityMs = 0.0
    /// Vp (changed at every decision unless BASIC), γp and the utilities.
    private var scores = SabreBOLAScores.unset
    /// 0-based level of the last decision (or the level last abandoned to).
    private var last = 0

    public init(gp: Double = 5, basic: Bool = false, oscillation: Bool = false) {
        self.gp = gp
        self.basic = basic
        self.oscillation = oscillation
    }

    public mutating func setUp(_ session: SessionInfo) {
        throughputRule.setUp(session)
        segmentCount = session.segmentCount
        capacityMs = session.maxBufferSeconds * 1000
        let utilities = bitratesKbps.map { log($0) - log(bitratesKbps[0]) }
        let vp = (capacityMs - segmentMs) / (utilities[utilities.count - 1] + gp)
        scores = SabreBOLAScores(vp: vp, gp: gp, utilities: utilities, bitratesKbps: bitratesKbps)
        last = 0
    }

    public mutating func chooseLevel(_ context: DecisionContext) -> Int { decide(context).level }

    public mutating func decide(_ context: DecisionContext) -> RequestDecision {
        // Sabre fetches the first segment at the lowest level without asking the rule.
        guard let throughput = SabreArithmetic.known(context.throughputEstimateKbps) else { return RequestDecision(level: 0) }
        let levelMs = context.bufferSeconds * 1000
        if !basic {
            let index = context.segmentIndex
            let horizon = SabreArithmetic.larger(Double(min(index, segmentCount - index)) / 2, 3)
            let effectiveMs = SabreArithmetic.smaller(capacityMs, horizon * segmentMs)
            scores.vp = (effectiveMs - segmentMs) / (scores.utilities[scores.utilities.count - 1] + gp)
        }
        var level = scores.bestLevel(levelMs: levelMs)
        var delayMs = 0.0
        if level > last {
            let latencyMs = (SabreArithmetic.known(context.latencyEstimateSeconds) ?? 0) * 1000
            let throughputLevel = throughputRule.quality(kbps: throughput, latencyMs: latencyMs)
            if level > throughputLevel {
                if last > throughputLevel {
                    level = last
                } else if oscillation {
                    level = throughputLevel
                    if level < bitratesKbps.count - 1 {
                        delayMs = SabreArithmetic.larger(0, levelMs - scores.vp * (scores.utilities[throughputLevel] + gp))
                    }
                } else {
                    level = throughputLevel + 1
                }
            }
        }
        last = level
        return RequestDecision(level: level, delaySeconds: delayMs / 1000)
    }

    /// Goes on with the recheck ``SabreBOLAScores`` derives when no lower level wins now.
    public mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
        if basic { return AbandonmentAnswer(recheck: .never) }
        let sizeBits = progress.sizeBytes * 8
        let downloadedBits = progress.receivedBytes * 8
        let remainingBits = sizeBits - downloadedBits
        if downloadedBits <= 0 || remainingBits <= 0 { return .goOn }
        let bufferMs = progress.bufferSeconds * 1000
        let current = progress.level
        let score = scores.score(current: current, bufferMs: bufferMs, bits: remainingBits)
        if score >= 0, let best = scores.lowerLevel(current: current, sizeBits: sizeBits, leftBits: remainingBits, bufferMs: bufferMs, score: score) {
            last = best
            return .abandon(to: best)
        }
        let threshold = scores.bufferThreshold(current: current, sizeBits: sizeBits, remainingBits: remainingBits)
        return AbandonmentAnswer(recheck: SabreBOLAScores.recheck(progress, threshold: threshold, offsetMs: 0))
    }
}

extension StrategyDescriptor {
    /// Native twin of `Strategies/sabre/bola.lua`, id `sabre/bola-native`, with its parameters
    /// and defaults.
    public static let sabreBOLA = sabreTwin(
        "bola", name: "BOLA (Sabre, native)",
        description: "Sabre's BOLA-U: V(u + gp) buffer rule, throughput-capped up-switches, abandonment.",
        params: SabreBOLA.params
    ) { values in SabreBOLA(values) }
}

extension SabreBOLA {
    /// `Strategies/sabre/bola.lua`'s parameters, sorted by key.
    static let params = [
        StrategyParam(key: "basic", value: .boolean(false), summary: "BOLA-BASIC: fixed Vp, no abandonment (Sabre's -ab)"),
        StrategyParam(key: "gp", value: .integer(5), summary: "γp, added to every utility"),
        StrategyParam(key: "oscillation", value: .boolean(false), summary: "BOLA-O: up-switch to the throughput level and wait (Sabre's -ao)"),
    ]

    /// BOLA with `values`' settings (the keys ``params`` declares).
    init(_ values: StrategyParamValues) {
        self.init(gp: values.declaredNumber("gp"), basic: values.declaredBoolean("basic"), oscillation: values.declaredBoolean("oscillation"))
    }
}
