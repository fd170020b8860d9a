/// Sabre's DYNAMIC with BOLA-E, as in dash.js: the throughput rule below 5 s of buffer, BOLA-E
/// above 10 s, only the active rule asked; abandonment by the active rule.
/// `Strategies/sabre/dynamicdash.lua` in Swift, decision for decision.
///
/// Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
/// DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953.
public struct SabreDynamicDash: SessionStrategy, Sendable {
    /// Buffer below which the throughput rule takes over.
    public var lowSeconds: Double
    /// Buffer above which BOLA-E takes over.
    public var highSeconds: Double

    private var bolae = SabreBOLAE()
    private var throughputRule = SabreThroughputRule()
    private var usingBOLA = false

    public init(lowSeconds: Double = 5, highSeconds: Double = 10) {
        self.lowSeconds = lowSeconds
        self.highSeconds = highSeconds
    }

    public mutating func setUp(_ session: SessionInfo) {
        bolae.setUp(session)
        throughputRule.setUp(session)
        usingBOLA = false
    }

    public mutating func chooseLevel(_ context: DecisionContext) -> Int { decide(context).level }

    public mutating func decide(_ context: DecisionContext) -> RequestDecision {
        let levelMs = context.bufferSeconds * 1000
        if usingBOLA, levelMs < lowSeconds * 1000 {
            usingBOLA = false
        } else if !usingBOLA, levelMs > highSeconds * 1000 {
            usingBOLA = true
        }
        return usingBOLA ? bolae.decide(context) : throughputRule.decide(context)
    }

    public mutating func didWait(seconds: Double, context: DecisionContext) {
        bolae.didWait(seconds: seconds, context: context)
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        bolae.didDownload(record, context: context)
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
        usingBOLA ? bolae.answerAbandonment(progress) : throughputRule.answerAbandonment(progress)
    }
}

extension StrategyDescriptor {
    /// Native twin of `Strategies/sabre/dynamicdash.lua`, id `sabre/dynamicdash-native`, with its parameters
    /// and defaults.
    public static let sabreDynamicDash = sabreTwin(
        "dynamicdash", name: "DYNAMIC-DASH (Sabre, native)",
        description: "Sabre's dash.js DYNAMIC: throughput rule below 5 s, BOLA-E above 10 s, hysteresis between.",
        params: [
            StrategyParam(key: "high_s", value: .integer(10), summary: "buffer above which BOLA-E takes over, seconds"),
            StrategyParam(key: "low_s", value: .integer(5), summary: "buffer below which the throughput rule takes over, seconds"),
        ]
    ) { values in SabreDynamicDash(values) }
}

extension SabreDynamicDash {
    /// DYNAMIC-DASH with `values`' settings (the keys `sabreDynamicDash` declares).
    init(_ values: StrategyParamValues) {
        self.init(lowSeconds: values.declaredNumber("low_s"), highSeconds: values.declaredNumber("high_s"))
    }
}
