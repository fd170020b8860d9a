/// Sabre's DYNAMIC: the throughput rule while the buffer is low, BOLA once it is high, both
/// asked at every decision; abandonment always by the throughput rule.
/// `Strategies/sabre/dynamic.lua` in Swift, decision for decision.
///
/// Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
/// DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953.
public struct SabreDynamic: SessionStrategy, Sendable {
    /// Buffer above which BOLA takes over while it asks no less than the throughput rule.
    public var thresholdSeconds: Double

    private var bola = SabreBOLA()
    private var throughputRule = SabreThroughputRule()
    private var usingBOLA = false

    public init(thresholdSeconds: Double = 10) {
        self.thresholdSeconds = thresholdSeconds
    }

    public mutating func setUp(_ session: SessionInfo) {
        bola.setUp(session)
        throughputRule.setUp(session)
        usingBOLA = false
    }

    public mutating func chooseLevel(_ context: DecisionContext) -> Int { decide(context).level }

    public mutating func decide(_ context: DecisionContext) -> RequestDecision {
        let levelMs = context.bufferSeconds * 1000
        let thresholdMs = thresholdSeconds * 1000
        let fromBOLA = bola.decide(context)
        let fromThroughput = throughputRule.decide(context)
        if usingBOLA, levelMs < thresholdMs, fromBOLA.level < fromThroughput.level {
            usingBOLA = false
        } else if !usingBOLA, levelMs > thresholdMs, fromBOLA.level >= fromThroughput.level {
            usingBOLA = true
        }
        return usingBOLA ? fromBOLA : fromThroughput
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        if record.isReplacement { usingBOLA = false }
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
        throughputRule.answerAbandonment(progress)
    }
}

extension StrategyDescriptor {
    /// Native twin of `Strategies/sabre/dynamic.lua`, id `sabre/dynamic-native`, with its parameters
    /// and defaults.
    public static let sabreDynamic = sabreTwin(
        "dynamic", name: "DYNAMIC (Sabre, native)",
        description: "Sabre's DYNAMIC: throughput rule below 10 s of buffer, BOLA above while BOLA asks no more.",
        params: [StrategyParam(key: "threshold_s", value: .integer(10), summary: "buffer above which BOLA may take over, seconds")]
    ) { values in SabreDynamic(values) }
}

extension SabreDynamic {
    /// DYNAMIC with `values`' settings (the keys `sabreDynamic` declares).
    init(_ values: StrategyParamValues) {
        self.init(thresholdSeconds: values.declaredNumber("threshold_s"))
    }
}
