// dash.js 5.1.1's ABR as a native strategy (ids `dashjs`, `dashjs/bola`, `dashjs/throughput`, `dashjs/l2a`,
// `dashjs/lolp`): the browser's reports (DashJSBrowser) become E.2 decision records, built typed as the reader reads
// their lines, and each is replayed by the same session replayer that equals replay.mjs (DashJSReplaySession), so the
// decisions abrlab plays are exactly those of the records it can write. Spec sections A.2-A.5, E, G.
// - No rule runs before the first media segment: it is fetched at the initial bitrate, the highest representation
//   within `DEFAULT_VIDEO_BITRATE` = 1000 kbit/s (AbrController.js:46, 654-678; ScheduleController's flag, spec A.2).
// - One quality decision per media segment; after an abandonment the segment is fetched again at the level the
//   abandonment chose, without another decision (the switch clears `shouldCheckPlaybackQuality`, spec A.2, A.5).
// - BOLA's `timeToLoadDelay` delays the request (RequestDecision's idle delay; StreamProcessor.js:462).
// - On the `live` profile the stream is low-latency live and dash.js's catch-up sets the playback rate
//   (DashJSStrategy+Live).

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
    var browser: DashJSBrowser?
    /// The live player's timeupdates and rate; nil on demand.
    var live: DashJSLivePlayback?
    private var replay: DashJSReplaySession?
    private var ladder = DashJSLadder([DashJSRepresentation(id: "v0", bandwidthBps: 1)])
    /// Each level's representation id, `v` and the level, written once rather than at every progress check.
    private var ids: [String] = []
    var current = ""
    var sessionKey = ""
    private var records = 0
    /// The level an abandonment chose for the segment's next request.
    private var refetchLevel: Int?

    public init(ruleSet: RuleSet, sink: DashJSRecordSink? = nil) {
        self.ruleSet = ruleSet
        self.sink = sink
    }

    public func fit(_ setting: RunSetting) throws -> VideoFit { .fits }

    public mutating func setUp(_ session: SessionInfo) throws {
        // Ids are the levels: dash.js sorts by bandwidth, so a level's absoluteIndex is its rank, found by id.
        ids = session.video.bitratesKbps.indices.map(DashJSLadder.id(ofLevel:))
        ladder = DashJSLadder(levelsKbps: session.video.bitratesKbps)
        current = ladder.optimal(forKbps: Self.initialBitrateKbps).id
        sessionKey = "\(ruleSet.rawValue)@\(session.traceName)"
        live = session.live.map { DashJSLivePlayback(liveDelaySeconds: $0.targetLatencySeconds) }
        browser = try DashJSBrowser(session: sessionKey, seed: session.seed, settings: ruleSet.settings, ladder: ladder,
                                    segmentSeconds: session.video.segmentDurationSeconds, writesJSON: sink != nil,
                                    liveDelaySeconds: live?.liveDelaySeconds)
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int { try decide(context).level }

    public mutating func decide(_ context: DecisionContext) throws -> RequestDecision {
        var decision = try decideLevel(context)
        // Live: the rate dash.js's catch-up set holds (the engine's own catch-up never runs).
        decision.playbackRate = live?.playbackRate
        return decision
    }

    private mutating func decideLevel(_ context: DecisionContext) throws -> RequestDecision {
        let now = context.elapsedSeconds
        if let level = refetchLevel {
            refetchLevel = nil
            browser!.requestStarts(atSeconds: now)
            return RequestDecision(level: level)
        }
        guard context.segmentIndex > 0 || !context.downloads.isEmpty else {
            browser!.requestStarts(atSeconds: now)
            return RequestDecision(level: DashJSLadder.level(ofId: current))
        }
        var built = browser!.qualityRecord(atSeconds: now, bufferSeconds: context.bufferSeconds, currentId: current)
        if let state = context.live {
            DashJSBrowser.addLive(&built, latencySeconds: state.latencySeconds, playbackRate: state.playbackRate,
                                  timeSeconds: state.playheadSeconds)
        }
        let answer = try run(built)
        if let chosen = answer.chosen { current = chosen.id }
        let delayMs = answer.loadDelayMs ?? 0
        let delaySeconds = delayMs > 0 ? delayMs / 1000 : 0
        browser!.requestStarts(atSeconds: now + delaySeconds)
        return RequestDecision(level: DashJSLadder.level(ofId: current), delaySeconds: delaySeconds)
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer {
        let now = browser!.requestStart + progress.elapsedSeconds
        let loading = ids[progress.level]
        let chosen = try check(browser!.progressCheck(progress, atSeconds: now, representationId: loading, currentId: current),
                               representationId: loading)
        guard let id = chosen?.id else { return .goOn }
        current = id
        // The engine refetches only below the loading level; dash.js would refetch the same one, which never happens
        // with AbandonRequestsRule (it proposes only what fits the measured throughput, below the loading level).
        let level = DashJSLadder.level(ofId: id)
        guard level < progress.level else { return .goOn }
        refetchLevel = level
        return .abandon(to: level)
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {
        if live != nil { return downloadedLive(record, context: context, representationId: ids[record.level]) }
        browser!.downloaded(record, representationId: ids[record.level], endSeconds: context.elapsedSeconds,
                            bufferSeconds: context.bufferSeconds)
    }

    /// Replays the record, and keeps its line with abrlab's answer when records are kept.
    mutating func run(_ built: DashJSBrowser.Built) throws -> DashJSAnswer {
        records += 1
        do {
            if replay == nil { replay = try DashJSReplaySession(first: built.record, nowMs: 0) }
            let answer = try replay!.answer(built.record)
            if let sink, let members = built.members {
                sink.add(session: sessionKey, line: DashJSOutputJSON.object(members + [("abrlab", answer.json)]).text)
            }
            return answer
        } catch {
            throw InputError(file: sessionKey, "dash.js record \(records): \(error.message)")
        }
    }

    /// Answers a progress check without its record, and keeps the record's line with that answer when records are
    /// kept, so that the records' checks against replay.mjs check this path.
    private mutating func check(_ check: DashJSBrowser.Check, representationId: String) throws -> DashJSRepresentation? {
        records += 1
        do {
            if replay == nil, let first = browser!.firstCheckRecord { replay = try DashJSReplaySession(first: first, nowMs: 0) }
            let events = browser!.checkEvents()
            let chosen = try replay!.progressCheck(nowMs: check.nowMs, events: events, request: check.request,
                                                   representationId: representationId)
            browser!.checked(consume events)
            if let sink, let members = browser!.checkMembers {
                let answer = DashJSAnswer(kind: .abandon, chosen: chosen, loadDelayMs: nil, newRate: nil)
                sink.add(session: sessionKey, line: DashJSOutputJSON.object(members + [("abrlab", answer.json)]).text)
            }
            return chosen
        } catch {
            throw InputError(file: sessionKey, "dash.js record \(records): \(error.message)")
        }
    }
}
