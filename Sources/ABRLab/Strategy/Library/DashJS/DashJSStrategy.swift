// dash.js 5.1.1's ABR as a native strategy (ids `dashjs`, `dashjs/bola`, `dashjs/throughput`, `dashjs/l2a`,
// `dashjs/lolp`): the browser's reports (DashJSBrowser) become E.2 decision records, and each record is read back
// (DashJSRecordReader) and replayed by the same session replayer that equals replay.mjs (DashJSReplaySession), so the
// decisions abrlab plays are exactly those of the records it can write. Spec sections A.2-A.5, E, G.
// - No rule runs before the first media segment: it is fetched at the initial bitrate, the highest representation
//   within `DEFAULT_VIDEO_BITRATE` = 1000 kbit/s (AbrController.js:46, 654-678; ScheduleController's flag, spec A.2).
// - One quality decision per media segment; after an abandonment the segment is fetched again at the level the
//   abandonment chose, without another decision (the switch clears `shouldCheckPlaybackQuality`, spec A.2, A.5).
// - BOLA's `timeToLoadDelay` delays the request (RequestDecision's idle delay; StreamProcessor.js:462).

public struct DashJSStrategy: SessionStrategy {
    /// The rule sets that ship: dash.js's defaults, and the defaults with one rule in place of the dynamic
    /// Throughput/BOLA pair.
    public enum RuleSet: String, Sendable, CaseIterable {
        case `default` = "dashjs"
        case bola = "dashjs/bola"
        case throughput = "dashjs/throughput"
        case l2a = "dashjs/l2a"
        case lolp = "dashjs/lolp"

        /// The record's `settings`: dash.js's `abr.rules` changes from its defaults (core/Settings.js:1328-1378).
        var settings: DashJSOutputJSON {
            let changes: [(String, Bool)] = switch self {
            case .default: []
            case .bola: [("throughputRule", false)]
            case .throughput: [("bolaRule", false)]
            case .l2a: [("throughputRule", false), ("bolaRule", false), ("l2ARule", true)]
            case .lolp: [("throughputRule", false), ("bolaRule", false), ("loLPRule", true)]
            }
            let rules = DashJSOutputJSON.object(changes.map { ($0.0, .object([("active", .bool($0.1))])) })
            return .object([("streaming", .object([("abr", .object([("rules", rules)]))]))])
        }
    }

    /// `DEFAULT_VIDEO_BITRATE` (kbit/s): the initial bitrate without a saved or configured one.
    static let initialBitrateKbps = 1000.0

    public let ruleSet: RuleSet
    /// Where the session's records go, with abrlab's answers; nil keeps none.
    let sink: DashJSRecordSink?
    private var browser: DashJSBrowser?
    private var replay: DashJSReplaySession?
    private var ladder = DashJSLadder([DashJSRepresentation(id: "v0", bandwidthBps: 1)])
    private var current = ""
    private var sessionKey = ""
    private var records = 0
    /// The level an abandonment chose for the segment's next request.
    private var refetchLevel: Int?

    public init(ruleSet: RuleSet, sink: DashJSRecordSink? = nil) {
        self.ruleSet = ruleSet
        self.sink = sink
    }

    public func fit(_ setting: RunSetting) throws -> VideoFit {
        setting.live == nil ? .fits : .unfit(reason: "dash.js's rule sets are modelled on demand only (profile dashjs)")
    }

    public mutating func setUp(_ session: SessionInfo) throws {
        // Ids are the levels: dash.js sorts by bandwidth, so a level's absoluteIndex is its rank, found by id.
        ladder = DashJSLadder(session.video.bitratesKbps.enumerated().map { DashJSRepresentation(id: "v\($0.offset)", bandwidthBps: $0.element * 1000) })
        current = ladder.optimal(forKbps: Self.initialBitrateKbps).id
        sessionKey = "\(ruleSet.rawValue)@\(session.traceName)"
        browser = DashJSBrowser(session: sessionKey, seed: session.seed, settings: ruleSet.settings, ladder: ladder,
                                segmentSeconds: session.video.segmentDurationSeconds)
    }

    private static func level(_ id: String) -> Int { Int(id.dropFirst())! }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int { try decide(context).level }

    public mutating func decide(_ context: DecisionContext) throws -> RequestDecision {
        let now = context.elapsedSeconds
        if let level = refetchLevel {
            refetchLevel = nil
            browser!.requestStarts(atSeconds: now)
            return RequestDecision(level: level)
        }
        guard context.segmentIndex > 0 || !context.downloads.isEmpty else {
            browser!.requestStarts(atSeconds: now)
            return RequestDecision(level: Self.level(current))
        }
        let record = browser!.qualityRecord(atSeconds: now, bufferSeconds: context.bufferSeconds, currentId: current)
        let out = try run(record)
        if let id = Self.text(out, "chosenId") { current = id }
        let delayMs = Self.number(out, "timeToLoadDelayMs") ?? 0
        let delaySeconds = delayMs > 0 ? delayMs / 1000 : 0
        browser!.requestStarts(atSeconds: now + delaySeconds)
        return RequestDecision(level: Self.level(current), delaySeconds: delaySeconds)
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer {
        let now = browser!.requestStart + progress.elapsedSeconds
        let loading = "v\(progress.level)"
        let record = browser!.abandonRecord(progress, atSeconds: now, representationId: loading, currentId: current)
        let out = try run(record)
        guard case .bool(true) = Self.value(out, "abandon"), let id = Self.text(out, "chosenId") else { return .goOn }
        current = id
        // The engine refetches only below the loading level; dash.js would refetch the same one, which never happens
        // with AbandonRequestsRule (it proposes only what fits the measured throughput, below the loading level).
        guard Self.level(id) < progress.level else { return .goOn }
        refetchLevel = Self.level(id)
        return .abandon(to: Self.level(id))
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {
        browser!.downloaded(record, representationId: "v\(record.level)", endSeconds: context.elapsedSeconds,
                            bufferSeconds: context.bufferSeconds)
    }

    /// Reads the record as the replayer reads its line (without writing the text: the values
    /// the text would give), replays it, and keeps it with abrlab's answer when records are kept.
    private mutating func run(_ members: [(String, DashJSOutputJSON)]) throws -> [(String, DashJSOutputJSON)] {
        records += 1
        let record = try DashJSRecordReader.read(built: .object(members), lineNumber: records, file: sessionKey)
        do {
            if replay == nil { replay = try DashJSReplaySession(first: record, nowMs: 0) }
            let out = try replay!.run(record)
            sink?.add(session: sessionKey, line: DashJSOutputJSON.object(members + [("abrlab", Self.answer(out, kind: record.kind))]).text)
            return out
        } catch {
            throw InputError(file: sessionKey, "dash.js record \(records): \(error.message)")
        }
    }

    /// abrlab's own answer: the chosen index, whether it abandons, the new rate.
    private static func answer(_ out: [(String, DashJSOutputJSON)], kind: DashJSRecord.Kind) -> DashJSOutputJSON {
        switch kind {
        case .quality: .object([("chosenIndex", value(out, "chosenIndex") ?? .null)])
        case .abandon: .object([("abandon", value(out, "abandon") ?? .null), ("chosenIndex", value(out, "chosenIndex") ?? .null)])
        case .catchup: .object([("newRate", value(out, "newRate") ?? .null)])
        case .events: .object([])
        }
    }

    private static func value(_ out: [(String, DashJSOutputJSON)], _ key: String) -> DashJSOutputJSON? { out.first { $0.0 == key }?.1 }

    private static func number(_ out: [(String, DashJSOutputJSON)], _ key: String) -> Double? {
        if case .number(let number) = value(out, key) { number } else { nil }
    }

    private static func text(_ out: [(String, DashJSOutputJSON)], _ key: String) -> String? {
        if case .string(let text) = value(out, key) { text } else { nil }
    }
}
