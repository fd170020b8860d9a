// dash.js 5.1.1's default rule set watching a session another strategy plays on the `dashjs` profile (a Lua
// script's ctx, docs/lua-api.md "dash.js's view"): the `dashjs` strategy's browser and replayer (DashJSBrowser,
// DashJSReplaySession), told at each decision the level the session last requested, so that the throughput model,
// BOLA's state and the switch history follow the session as it is played; each decision's record is answered with
// every rule's proposal and dash.js's combined choice. Spec sections A.2-A.4, B.1-B.4, C.4, E.2.
// - No AbandonRequestsRule runs: the strategy decides abandonment itself. An abandoned request still reaches BOLA
//   (FRAGMENT_LOADING_ABANDONED); dash.js's abandonment state stays `allowload`.
// - dash.js decides nothing for the first segment; its advice is the initial bitrate's level and no rule's proposal.
// - A request's progress is not reported (no abandonment checks), so its HttpList traces hold its end alone; the
//   throughput samples come from Resource Timing, which does not read them.

public struct DashJSAdvisor {
    /// What dash.js's default rules make of the session before one decision. Levels are 0-based.
    public struct Advice: Sendable, Equatable {
        /// dash.js's choice for this segment: the lowest rule proposal, or the level playing when there is none.
        public var level: Int
        /// `getAverageThroughput` (EWMA, rounded); nil before the first sample.
        public var averageThroughputKbps: Double?
        /// `getSafeAverageThroughput`: the average × `bandwidthSafetyFactor` 0.9.
        public var safeAverageThroughputKbps: Double?
        /// The newest sample (`getAverageThroughput(type, ARITHMETIC_MEAN, 1)`).
        public var latestThroughputKbps: Double?
        /// `getCurrentBufferLevel`: the last BufferLevel metric, to the millisecond.
        public var bufferLevelSeconds: Double
        /// Whether BOLA rather than ThroughputRule decides (the dynamic switch, on at 18 s, off below 9 s).
        public var usesBola: Bool
        /// ThroughputRule's proposal, probed even while BOLA decides; nil when it proposes nothing.
        public var throughputRuleLevel: Int?
        /// BOLA's proposal; nil when ThroughputRule decides or BOLA proposes nothing.
        public var bolaLevel: Int?
        public var insufficientBufferLevel: Int?
        public var switchHistoryLevel: Int?
        /// BOLA's phase; nil before its first call.
        public var bolaPhase: DashJSBolaRule.Phase?
        /// BOLA-O's placeholder buffer after this decision; nil before BOLA's first call.
        public var bolaPlaceholderSeconds: Double?
        /// The delay BOLA asks for before the request (0 when none).
        public var bolaDelaySeconds: Double
    }

    private var browser: DashJSBrowser
    private var replay: DashJSReplaySession?
    private let initialLevel: Int
    /// The session in messages, as the `dashjs` strategies name theirs.
    private let sessionKey: String

    /// dash.js's default rule set over `session`'s video, seeded with its seed.
    public init(_ session: SessionInfo) throws(InputError) {
        let ladder = DashJSLadder(levelsKbps: session.video.bitratesKbps)
        initialLevel = DashJSLadder.level(of: ladder.optimal(forKbps: DashJSStrategy.initialBitrateKbps))
        sessionKey = "dashjs advice@\(session.traceName)"
        browser = try DashJSBrowser(session: sessionKey, seed: session.seed,
                                    settings: DashJSStrategy.RuleSet.default.settings, ladder: ladder,
                                    segmentSeconds: session.video.segmentDurationSeconds, writesJSON: false)
    }

    /// The advice before the decision `context` asks for; the first decision of a session has no rule's.
    public mutating func advise(_ context: DecisionContext) throws(InputError) -> Advice {
        guard let lastLevel = context.lastLevel else {
            return Advice(level: initialLevel, bufferLevelSeconds: 0, usesBola: false, bolaDelaySeconds: 0)
        }
        let built = browser.qualityRecord(atSeconds: context.elapsedSeconds, bufferSeconds: context.bufferSeconds,
                                          currentId: DashJSLadder.id(ofLevel: lastLevel))
        var record = built.record
        record.currentRepresentationId = DashJSLadder.id(ofLevel: lastLevel)
        do {
            if replay == nil { replay = try DashJSReplaySession(first: record, nowMs: 0) }
            let (decision, probe) = try replay!.advise(record)
            return advice(decision, throughputRule: probe, controller: replay!.controller)
        } catch {
            throw InputError(file: sessionKey, "dash.js's view of segment \(context.segmentIndex + 1): \(error.message)")
        }
    }

    private func advice(_ decision: DashJSAbrController.QualityDecision, throughputRule: DashJSSwitchRequest?,
                        controller: DashJSAbrController) -> Advice {
        func proposal(_ name: DashJSAbrController.RuleName) -> Int? {
            decision.rules.first { $0.name == name }?.request.representation.map(DashJSLadder.level(of:))
        }
        func known(_ value: Double) -> Double? { value.isNaN ? nil : value }
        let settings = controller.settings
        let model = controller.throughput
        let dynamic = controller.isDynamic
        let bola = controller.bolaRule
        return Advice(
            level: DashJSLadder.level(of: decision.chosen),
            averageThroughputKbps: known(model.averageThroughputKbps(settings: settings, isDynamic: dynamic)),
            safeAverageThroughputKbps: known(model.safeAverageThroughputKbps(settings: settings, isDynamic: dynamic)),
            latestThroughputKbps: known(model.averageThroughputKbps(settings: settings, isDynamic: dynamic, mode: .arithmeticMean,
                                                                     sampleCount: 1)),
            bufferLevelSeconds: controller.bufferLevelSeconds,
            usesBola: controller.usesBola,
            throughputRuleLevel: throughputRule?.representation.map(DashJSLadder.level(of:)),
            bolaLevel: proposal(.bola),
            insufficientBufferLevel: proposal(.insufficientBuffer),
            switchHistoryLevel: proposal(.switchHistory),
            bolaPhase: bola.phase,
            bolaPlaceholderSeconds: bola.placeholderSeconds,
            bolaDelaySeconds: max(0, decision.loadDelayMs ?? 0) / 1000
        )
    }

    /// The request for the segment just decided leaves at session time `seconds` (after any delay).
    public mutating func requestStarts(atSeconds seconds: Double) {
        browser.requestStarts(atSeconds: seconds)
    }

    /// A request ended: its HttpList entry, the append and the level (or, abandoned, FRAGMENT_LOADING_ABANDONED).
    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        browser.downloaded(record, representationId: DashJSLadder.id(ofLevel: record.level), endSeconds: context.elapsedSeconds,
                           bufferSeconds: context.bufferSeconds)
    }
}
