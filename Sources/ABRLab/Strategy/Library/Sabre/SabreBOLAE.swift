import Foundation

/// Sabre's BOLA-E, the BOLA of dash.js: BOLA with a placeholder buffer that lets it start at the
/// throughput level, delays before requests instead of oscillating, an insufficient-buffer rule
/// and abandonment; `Strategies/sabre/bolae.lua` in Swift, decision for decision.
///
/// Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
/// DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. Times are in
/// milliseconds as Sabre keeps them.
public struct SabreBOLAE: SessionStrategy, Sendable {
    /// γp when the insufficient-buffer rule is off.
    public var gp: Double
    /// Whether the insufficient-buffer rule is on; it also sets γp and Vp from the buffer target.
    public var insufficientBufferRule: Bool
    /// BOLA-O: no step above the throughput level on capped up-switches (Sabre's `-ao`).
    public var oscillation: Bool

    static let minimumBufferMs = 10_000
    static let bufferPerLevelMs = 2_000

    /// Also the keeper of the ladder and the segment duration.
    private var throughputRule = SabreThroughputRule()
    private var segmentMs: Double { throughputRule.segmentMs }
    private var bitratesKbps: [Double] { throughputRule.bitratesKbps }
    /// Vp, the γp in use and the utilities, fixed by the set-up.
    private var scores = SabreBOLAScores.unset
    /// minBuffer(q) of every level: the buffer above which q − 1 no longer beats q.
    private var minBuffersMs: [Double] = []
    private var startup = true
    private var placeholderMs = 0.0
    /// 0-based level of the last request.
    private var last = 0
    private var ibrSafety = 0.9

    public init(gp: Double = 5, insufficientBufferRule: Bool = true, oscillation: Bool = false) {
        self.gp = gp
        self.insufficientBufferRule = insufficientBufferRule
        self.oscillation = oscillation
    }

    public mutating func setUp(_ session: SessionInfo) {
        throughputRule.setUp(session)
        let capacityMs = session.maxBufferSeconds * 1000
        // Sabre adds one offset, 1 − ln(b₁), computed first: summed in another order the last
        // bits of u differ, and a placeholder set to minBuffer(q) after an abandonment sits
        // exactly where levels q − 1 and q tie, so those bits pick the level.
        let offset = 1 - log(bitratesKbps[0])
        let utilities = bitratesKbps.map { log($0) + offset }
        let top = utilities[utilities.count - 1]
        let gpInUse: Double, vp: Double
        if insufficientBufferRule {
            let targetMs = SabreArithmetic.larger(Double(Self.minimumBufferMs + Self.bufferPerLevelMs * bitratesKbps.count), capacityMs)
            gpInUse = (top - 1) / (targetMs / Double(Self.minimumBufferMs) - 1)
            vp = Double(Self.minimumBufferMs) / gpInUse
        } else {
            gpInUse = gp - 1
            vp = (capacityMs - segmentMs) / (top + gpInUse)
        }
        scores = SabreBOLAScores(vp: vp, gp: gpInUse, utilities: utilities, bitratesKbps: bitratesKbps)
        minBuffersMs = utilities.indices.map { minBufferMs($0) }
        startup = true
        placeholderMs = 0
        last = 0
        ibrSafety = 0.9
    }

    private func maxBufferMs(_ level: Int) -> Double { scores.vp * (scores.utilities[level] + scores.gp) }

    /// Computed once per level at set-up (``minBuffersMs``); a decision or a report reads it.
    private func minBufferMs(_ level: Int) -> Double {
        let (utilities, vp, gp) = (scores.utilities, scores.vp, scores.gp)
        var highest = 0.0
        for lower in 0..<level where utilities[lower] < utilities[level] {
            let crossing = (bitratesKbps[level] * utilities[lower] - bitratesKbps[lower] * utilities[level]) / (bitratesKbps[level] - bitratesKbps[lower])
            highest = SabreArithmetic.larger(highest, vp * (gp + crossing))
        }
        return highest
    }

    public mutating func chooseLevel(_ context: DecisionContext) -> Int { decide(context).level }

    public mutating func decide(_ context: DecisionContext) -> RequestDecision {
        // Sabre fetches the first segment at the lowest level without asking the rule.
        guard let throughput = SabreArithmetic.known(context.throughputEstimateKbps) else { return RequestDecision(level: 0) }
        let levelMs = context.bufferSeconds * 1000
        let latencyMs = (SabreArithmetic.known(context.latencyEstimateSeconds) ?? 0) * 1000
        if startup {
            startup = false
            ibrSafety = 0.9
            let level = throughputRule.quality(kbps: throughput, latencyMs: latencyMs)
            placeholderMs = SabreArithmetic.larger(0, minBuffersMs[level] - levelMs)
            return RequestDecision(level: level, delaySeconds: 0)
        }
        var level = scores.bestLevel(levelMs: levelMs + placeholderMs)
        let throughputLevel = throughputRule.quality(kbps: throughput, latencyMs: latencyMs)
        if level > last, level > throughputLevel {
            level = max(last, throughputLevel)
            if !oscillation { level += 1 }
        }
        var delayMs = levelMs + placeholderMs - maxBufferMs(level)
        if delayMs > 0 {
            if delayMs <= placeholderMs {
                placeholderMs -= delayMs
                delayMs = 0
            } else {
                delayMs -= placeholderMs
                placeholderMs = 0
            }
        } else {
            delayMs = 0
        }
        if level == bitratesKbps.count - 1 { delayMs = 0 }
        if insufficientBufferRule {
            let safe = ibrSafety * (levelMs - latencyMs) * throughput
            ibrSafety = SabreArithmetic.larger(0.5, 0.9 * ibrSafety)
            if let capped = (0..<level).first(where: { bitratesKbps[$0 + 1] * segmentMs > safe }) {
                level = capped
                delayMs = 0
                placeholderMs = SabreArithmetic.smaller(placeholderMs, SabreArithmetic.larger(0, minBuffersMs[capped] - levelMs))
            }
        }
        return RequestDecision(level: level, delaySeconds: delayMs / 1000)
    }

    public mutating func didWait(seconds: Double, context: DecisionContext) {
        placeholderMs += seconds * 1000
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        last = record.level
        let levelMs = record.bufferSeconds * 1000
        if !record.abandoned {
            if record.isReplacement {
                placeholderMs += segmentMs
            } else {
                let wasMs = levelMs + record.downloadTimeSeconds * 1000
                placeholderMs = SabreArithmetic.smaller(placeholderMs, SabreArithmetic.larger(0, maxBufferMs(record.level) - wasMs))
                if levelMs > 0 { placeholderMs = SabreArithmetic.larger(placeholderMs, minBuffersMs[record.level] - wasMs) }
            }
        } else if !record.isReplacement {
            let wantMs = record.abandonedToLevel.flatMap { $0 > 0 ? minBuffersMs[$0] : nil } ?? Double(Self.minimumBufferMs)
            placeholderMs = SabreArithmetic.smaller(placeholderMs, SabreArithmetic.larger(0, wantMs - levelMs))
        }
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
        let sizeBits = progress.sizeBytes * 8
        let downloadedBits = progress.receivedBytes * 8
        let remainingBits = sizeBits - downloadedBits
        if downloadedBits <= 0 || remainingBits <= 0 { return .goOn }
        let ttfbMs = progress.timeToFirstByteSeconds * 1000
        let bufferMs = SabreArithmetic.larger(0, progress.bufferSeconds * 1000 + placeholderMs - ttfbMs)
        let rate = downloadedBits / (progress.elapsedSeconds * 1000 - ttfbMs)
        let leftBits = remainingBits - ttfbMs * rate
        let current = progress.level
        if leftBits > 0 {
            let score = scores.score(current: current, bufferMs: bufferMs, bits: leftBits)
            if let best = scores.lowerLevel(current: current, sizeBits: sizeBits, leftBits: leftBits, bufferMs: bufferMs, score: score) {
                return .abandon(to: best)
            }
        }
        // What is left net of the latency's worth of bytes never exceeds `remainingBits`, so
        // the bound on `remainingBits` holds for it too.
        let threshold = scores.bufferThreshold(current: current, sizeBits: sizeBits, remainingBits: remainingBits)
        return AbandonmentAnswer(recheck: SabreBOLAScores.recheck(progress, threshold: threshold, offsetMs: placeholderMs - ttfbMs))
    }
}

extension StrategyDescriptor {
    /// Native twin of `Strategies/sabre/bolae.lua`, id `sabre/bolae-native`, with its parameters
    /// and defaults.
    public static let sabreBOLAE = sabreTwin(
        "bolae", name: "BOLA-E (Sabre, native)",
        description: "Sabre's BOLA-E: BOLA with a placeholder buffer, request delays, IBR and abandonment.",
        params: SabreBOLAE.params
    ) { values in SabreBOLAE(values) }
}

extension SabreBOLAE {
    /// `Strategies/sabre/bolae.lua`'s parameters, sorted by key.
    static let params = [
        StrategyParam(key: "gp", value: .integer(5), summary: "γp when the insufficient-buffer rule is off"),
        StrategyParam(key: "ibr", value: .boolean(true), summary: "insufficient-buffer rule on; it also sets γp and V from the buffer target"),
        StrategyParam(key: "oscillation", value: .boolean(false), summary: "BOLA-O: no +1 on capped up-switches (Sabre's -ao)"),
    ]

    /// BOLA-E with `values`' settings (the keys ``params`` declares).
    init(_ values: StrategyParamValues) {
        self.init(gp: values.declaredNumber("gp"), insufficientBufferRule: values.declaredBoolean("ibr"), oscillation: values.declaredBoolean("oscillation"))
    }
}
