/// Sabre's ThroughputRule: the highest level that 0.9 × the throughput estimate sustains, an
/// insufficient-buffer rule at low buffer, and abandonment of downloads that would take too
/// long; `Strategies/sabre/throughput.lua` in Swift, decision for decision.
///
/// Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
/// DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. Times are kept in
/// milliseconds, as Sabre keeps them, so every operation matches the reference's.
public struct SabreThroughputRule: SessionStrategy, Sendable {
    /// Share of the estimate a level may use.
    public var safety: Double
    /// Whether the insufficient-buffer rule caps the level.
    public var insufficientBufferRule: Bool
    /// A download is abandoned when it would take this many segment durations.
    public var abandonMultiplier: Double
    /// No abandonment in a download's first this many seconds.
    public var abandonGraceSeconds: Double

    private(set) var segmentMs = 0.0
    private(set) var bitratesKbps: [Double] = []
    private var ibrSafety = 0.9
    /// The latency estimate of the last decision, which the abandonment check uses.
    private var latencyMs = 0.0
    private var recheck = AbandonmentRecheck.nextStep

    public init(safety: Double = 0.9, insufficientBufferRule: Bool = true, abandonMultiplier: Double = 1.8, abandonGraceSeconds: Double = 0.5) {
        self.safety = safety
        self.insufficientBufferRule = insufficientBufferRule
        self.abandonMultiplier = abandonMultiplier
        self.abandonGraceSeconds = abandonGraceSeconds
    }

    public mutating func setUp(_ session: SessionInfo) {
        segmentMs = session.video.segmentDurationSeconds * 1000
        bitratesKbps = session.levelsKbps
        // Abandoning needs the grace to have passed and a projected time over the multiplier's
        // share of a segment: the check runs again only once both can hold.
        recheck = AbandonmentRecheck(elapsedSeconds: abandonGraceSeconds, projectedSeconds: abandonMultiplier * session.video.segmentDurationSeconds)
    }

    /// The highest 0-based level whose segment, at `kbps`, arrives within a segment duration
    /// after `latencyMs`.
    func quality(kbps: Double, latencyMs: Double) -> Int {
        var level = 0
        while level + 1 < bitratesKbps.count, latencyMs + segmentMs * bitratesKbps[level + 1] / kbps <= segmentMs { level += 1 }
        return level
    }

    public mutating func chooseLevel(_ context: DecisionContext) -> Int { decide(context).level }

    public mutating func decide(_ context: DecisionContext) -> RequestDecision {
        // Sabre fetches the first segment at the lowest level without asking the rule.
        guard let throughput = SabreArithmetic.known(context.throughputEstimateKbps) else { return RequestDecision(level: 0) }
        latencyMs = (SabreArithmetic.known(context.latencyEstimateSeconds) ?? 0) * 1000
        let levelMs = context.bufferSeconds * 1000
        var level = quality(kbps: safety * throughput, latencyMs: latencyMs)
        if insufficientBufferRule {
            let safe = ibrSafety * (levelMs - latencyMs) * throughput
            ibrSafety = SabreArithmetic.larger(0.5, 0.9 * ibrSafety)
            if let capped = (0..<level).first(where: { bitratesKbps[$0 + 1] * segmentMs > safe }) { level = capped }
        }
        return RequestDecision(level: level, delaySeconds: 0)
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
        let size = progress.sizeBytes * 8
        let downloaded = progress.receivedBytes * 8
        let left = size - downloaded
        let current = progress.level
        // Once even the lowest level's copy is no smaller than what is left, nothing can be
        // abandoned to: what is left only shrinks.
        if size * bitratesKbps[0] / bitratesKbps[current] >= left { return AbandonmentAnswer(recheck: .never) }
        let timeMs = progress.elapsedSeconds * 1000
        let ttfbMs = progress.timeToFirstByteSeconds * 1000
        let transferMs = timeMs - ttfbMs
        if timeMs < abandonGraceSeconds * 1000 || transferMs <= 0 { return AbandonmentAnswer(recheck: recheck) }
        let rate = downloaded / transferMs
        if timeMs + left / rate > abandonMultiplier * segmentMs {
            let level = quality(kbps: safety * rate, latencyMs: latencyMs)
            if level < current, size * bitratesKbps[level] / bitratesKbps[current] < left { return .abandon(to: level) }
        }
        return AbandonmentAnswer(recheck: recheck)
    }
}

extension StrategyDescriptor {
    /// Native twin of `Strategies/sabre/throughput.lua`, id `sabre/throughput-native`, with its parameters
    /// and defaults.
    public static let sabreThroughput = sabreTwin(
        "throughput", name: "Throughput (Sabre, native)",
        description: "Sabre's ThroughputRule: 0.9 x the EWMA estimate, insufficient-buffer rule, abandonment.",
        params: [
            StrategyParam(key: "abandon_grace_s", value: .number(0.5), summary: "no abandonment in a download's first seconds"),
            StrategyParam(key: "abandon_multiplier", value: .number(1.8), summary: "abandon when a download would take this many segment durations"),
            StrategyParam(key: "ibr", value: .boolean(true), summary: "insufficient-buffer rule on"),
            StrategyParam(key: "safety", value: .number(0.9), summary: "share of the estimate a level may use"),
        ]
    ) { values in SabreThroughputRule(values) }
}

extension SabreThroughputRule {
    /// The rule with `values`' settings (the keys `sabreThroughput` declares).
    init(_ values: StrategyParamValues) {
        self.init(
            safety: values.declaredNumber("safety"), insufficientBufferRule: values.declaredBoolean("ibr"),
            abandonMultiplier: values.declaredNumber("abandon_multiplier"), abandonGraceSeconds: values.declaredNumber("abandon_grace_s")
        )
    }
}
