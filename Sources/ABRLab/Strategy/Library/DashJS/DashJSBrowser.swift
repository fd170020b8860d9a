// The browser under dash.js 5.1.1 on the `dashjs` profile: what Chrome and dash.js's player tell the ABR rules,
// written as E.2 decision records from the engine's callbacks (../shared/specs/dashjs.md sections E.2, E.3, G).
// Each record is built typed, as DashJSRecordReader reads its line (the values its text gives), and as JSON members
// only when records are written, so a session that keeps none never builds or reads JSON.
// - Throughput by Resource Timing, dash.js's default (`useResourceTimingApi`, ThroughputModel.js; spec C.1, G.1):
//   `transferSize` is the segment's bytes (no response headers are emulated), `responseStart` the first byte,
//   `responseEnd` the last, in ms since the session began at Chrome's 0.1 ms resolution.
// - HttpList `trequest`, `tresponse`, `_tfinish` as JS Dates, integral ms; `tresponse` is the first progress event
//   (HTTPLoader.js:160-174), and each progress event is one trace `{s, d, b}` (:184-195).
// - Progress events (LOADING_PROGRESS, abandonment checks) every 50 ms of a request: the segment buffer's
//   progress steps, Chromium's XHR progress cadence; the last trace is the request's end.
// - BufferLevel metrics at each append, at each quality decision, and every 250 ms of playback (timeupdate,
//   PlaybackController's PLAYBACK_PROGRESS) until the buffer is empty; no updates while stalled (spec G.3).
// - The buffer state with each level: `bufferStalled` at 0.3 s or less, else `bufferLoaded` (BufferController.js:
//   904-932; spec G.5), an event only when it changes.

struct DashJSBrowser {
    /// A record as the replayer reads it, and its E.2 members when records are written (a struct, not a tuple,
    /// so that it moves without the runtime's generic tuple copies).
    struct Built {
        var record: DashJSRecord
        var members: [(String, DashJSOutputJSON)]?
    }

    /// A progress check as the replay session reads its record, without building the record (DashJSReplaySession.
    /// progressCheck): its clock and its request but the representation id (which the strategy has), plain numbers
    /// that move without reference counting. The rest stays on the browser: its events (``checkEvents()``, until
    /// ``checked(_:)``), the session's first record (``firstCheckRecord``) and the E.2 members (``checkMembers``).
    struct Check {
        var nowMs: Double?
        var request: DashJSRecord.AbandonRequest.Progress
    }

    /// What every record has: its seq and clock, and whether it is the session's first (the header's).
    private struct Stamp {
        var seq: Double?
        var nowMs: Double?
        var isFirst: Bool
    }

    /// `Date.now()` at the session's start: any fixed epoch; only differences reach the rules.
    static let epochMs = 1_700_000_000_000.0
    static let timeUpdateSeconds = 0.25
    static let stallThresholdSeconds = 0.3

    private let session: String
    /// The live delay (target latency) of a low-latency live stream, nil on demand (DashJSBrowser+Live).
    let liveDelaySeconds: Double?
    private let header: DashJSRecord.Header
    private let headerMembers: [(String, DashJSOutputJSON)]
    /// Whether records are built as JSON too (a sink keeps them).
    private let writesJSON: Bool
    let segmentSeconds: Double
    private var wroteHeader = false
    private var seq = 0
    /// The events since the last record.
    private var events: [DashJSRecord.Event] = []
    private var eventMembers: [DashJSOutputJSON] = []
    private var bufferState: String?
    /// The session's first record without its events, when a progress check made it: the replay session starts
    /// from it.
    private(set) var firstCheckRecord: DashJSRecord?
    /// The last progress check's E.2 members, when records are written.
    private(set) var checkMembers: [(String, DashJSOutputJSON)]?

    /// Playback since the last append: the level then, and the next timeupdate.
    private var playing = false
    private var appendSeconds = 0.0
    private var appendBufferSeconds = 0.0
    private var nextTickSeconds = 0.0

    /// The request under way: its start, each progress event's time (integral ms) and cumulative bytes, and their
    /// traces as its abandonment checks read them, one appended per event.
    private var requestStartSeconds = 0.0
    private var progress: [(atMs: Double, bytes: Double)] = []
    private var requestTraces = DashJSTraceLog()

    init(session: String, seed: UInt64, settings: DashJSOutputJSON, ladder: DashJSLadder, segmentSeconds: Double,
         writesJSON: Bool, liveDelaySeconds: Double? = nil) throws(InputError) {
        self.session = session
        self.liveDelaySeconds = liveDelaySeconds
        let live = liveDelaySeconds != nil
        self.segmentSeconds = segmentSeconds
        self.writesJSON = writesJSON
        let representations = ladder.representations.map { representation in
            DashJSOutputJSON.object([("id", .string(representation.id)), ("bandwidth", .number(representation.bandwidthBps))])
        }
        headerMembers = [("seed", .number(Double(seed % (1 << 32)))), ("settings", settings), ("streamId", .string("p0")),
                         ("mediaType", .string("video")), ("isDynamic", .bool(live)), ("representations", .array(representations)),
                         ("fragmentDuration", .number(segmentSeconds)), ("lowLatencyMode", .bool(live))]
            + (liveDelaySeconds.map { [("liveDelay", .number($0))] } ?? [])
        var header = DashJSRecord.Header()
        header.isDynamic = live
        header.seed = Self.read(Double(seed % (1 << 32)))
        try header.settings.update(from: settings.asRead(line: 1), file: session)
        header.fragmentDurationSeconds = Self.read(segmentSeconds) ?? .nan
        header.representations = ladder.representations.map { [header] representation in
            DashJSRepresentation(id: representation.id, bandwidthBps: Self.read(representation.bandwidthBps) ?? .nan,
                                 fragmentDurationSeconds: header.fragmentDurationSeconds)
        }
        self.header = header
    }

    /// The number the record's text gives the reader (nil for null).
    static func read(_ number: Double) -> Double? { DashJSOutputJSON.read(number) }

    /// `Date.now()` at session time `seconds`.
    static func dateMs(_ seconds: Double) -> Double { (epochMs + seconds * 1000).rounded(.towardZero) }

    /// The request for a segment leaves at session time `seconds`.
    mutating func requestStarts(atSeconds seconds: Double) {
        requestStartSeconds = seconds
        // Kept: the marks of every request fit in the capacity of the longest so far.
        progress.removeAll(keepingCapacity: true)
        requestTraces = DashJSTraceLog()
    }

    var requestStart: Double { requestStartSeconds }

    /// Timeupdates up to session time `seconds`, each a BufferLevel metric of the buffer drained since the last append.
    mutating func play(untilSeconds seconds: Double) {
        while playing && nextTickSeconds <= seconds {
            let level = max(0, appendBufferSeconds - (nextTickSeconds - appendSeconds))
            bufferLevel(level, atSeconds: nextTickSeconds)
            nextTickSeconds += Self.timeUpdateSeconds
            // An empty buffer stalls the video element: no timeupdate until the next append.
            if level == 0 { playing = false }
        }
    }

    /// One event for the next record; its JSON is built only when records are written.
    mutating func add(_ event: DashJSRecord.Event, _ members: @autoclosure () -> DashJSOutputJSON) {
        events.append(event)
        if writesJSON { eventMembers.append(members()) }
    }

    mutating func bufferLevel(_ seconds: Double, atSeconds at: Double) {
        let atMs = Self.dateMs(at)
        add(.bufferLevel(seconds: Self.read(seconds) ?? .nan, atMs: Self.read(atMs)),
            .object([("e", .string("bufferLevel")), ("level", .number(seconds)), ("atMs", .number(atMs))]))
        let state = Self.state(forLevel: seconds)
        if state != bufferState {
            bufferState = state
            add(.bufferState(state, atMs: Self.read(atMs)),
                .object([("e", .string("bufferState")), ("state", .string(state)), ("atMs", .number(atMs))]))
        }
    }

    private static func state(forLevel seconds: Double) -> String { seconds <= stallThresholdSeconds ? "bufferStalled" : "bufferLoaded" }

    /// A request ended at `endSeconds`: delivered, its HttpList entry, MEDIA_FRAGMENT_LOADED, the append and the
    /// new level (spec E.3's order); abandoned, FRAGMENT_LOADING_ABANDONED.
    mutating func downloaded(_ record: DownloadRecord, representationId: String, endSeconds: Double, bufferSeconds: Double) {
        play(untilSeconds: endSeconds)
        let endMs = Self.dateMs(endSeconds)
        let index = Double(record.segmentIndex)
        let segmentSeconds = self.segmentSeconds
        if record.abandoned {
            add(.fragmentLoadingAbandoned(atMs: Self.read(endMs)),
                .object([("e", .string("fragmentLoadingAbandoned")), ("index", .number(index)), ("atMs", .number(endMs))]))
            return
        }
        let startSeconds = endSeconds - record.downloadTimeSeconds
        let startMs = Self.dateMs(startSeconds)
        let sizeBytes = Double(record.sizeBytes)
        var marks = progress
        if marks.last.map({ $0.bytes < sizeBytes }) ?? true { marks.append((endMs, sizeBytes)) }
        let responseStartMs = Self.performanceMs(startSeconds + record.latencySeconds)
        let responseEndMs = Self.performanceMs(endSeconds)
        let firstByteMs = marks.first?.atMs ?? endMs
        let url = "segment-\(record.segmentIndex)-\(representationId).m4s"
        let readStartMs = Self.read(startMs) ?? .nan
        let timing = DashJSHTTPRequest.ResourceTiming(
            transferSize: Self.read(sizeBytes) ?? .nan, decodedBodySize: Self.read(sizeBytes) ?? .nan,
            responseStart: Self.read(responseStartMs) ?? .nan, responseEnd: Self.read(responseEndMs) ?? .nan)
        let request = DashJSHTTPRequest(startMs: readStartMs, firstByteMs: Self.read(firstByteMs) ?? readStartMs,
                                        endMs: Self.read(endMs) ?? .nan, traces: Self.traces(marks, startMs: startMs),
                                        resourceTiming: timing, isFetchLoader: false, isMediaSegment: true, url: url)
        add(.httpRequest(request, representationId: representationId, atMs: Self.read(endMs)), Self.httpRequestMembers(
            request: request, startMs: startMs, firstByteMs: firstByteMs, endMs: endMs,
            traces: Self.traceMembers(marks, startMs: startMs), resourceTiming: .object([
                ("transferSize", .number(sizeBytes)), ("decodedBodySize", .number(sizeBytes)),
                ("responseStart", .number(responseStartMs)), ("responseEnd", .number(responseEndMs)),
            ]), index: index, segmentSeconds: segmentSeconds, representationId: representationId))
        fragmentAppended(index: index, representationId: representationId, endMs: endMs)
        if !playing { nextTickSeconds = endSeconds + Self.timeUpdateSeconds }
        playing = true
        appendSeconds = endSeconds
        appendBufferSeconds = bufferSeconds
        bufferLevel(bufferSeconds, atSeconds: endSeconds)
    }

    /// An HttpList entry's E.3 members: the request's times, its traces and Resource Timing entry as given, the loader
    /// the request says.
    static func httpRequestMembers(request: DashJSHTTPRequest, startMs: Double, firstByteMs: Double, endMs: Double,
                                   traces: DashJSOutputJSON, resourceTiming: DashJSOutputJSON, index: Double,
                                   segmentSeconds: Double, representationId: String) -> DashJSOutputJSON {
        .object([
            ("e", .string("httpRequest")), ("startMs", .number(startMs)), ("firstByteMs", .number(firstByteMs)),
            ("endMs", .number(endMs)), ("traces", traces), ("resourceTiming", resourceTiming),
            ("fileLoaderType", .string(request.isFetchLoader ? "fetch_loader" : "xhr_loader")), ("type", .string("MediaSegment")),
            ("url", .string(request.url)), ("index", .number(index)),
            ("duration", .number(segmentSeconds)), ("representationId", .string(representationId)), ("status", .number(200)),
            ("atMs", .number(endMs)),
        ])
    }

    /// MEDIA_FRAGMENT_LOADED and BYTES_APPENDED_END_FRAGMENT of segment `index`, at the request's end.
    mutating func fragmentAppended(index: Double, representationId: String, endMs: Double) {
        // A local: the events' members are built while `add` holds self.
        let segmentSeconds = self.segmentSeconds
        let start = index * segmentSeconds
        add(.fragmentLoaded(start: Self.read(start) ?? .nan, durationSeconds: Self.read(segmentSeconds), representationId: representationId,
                            atMs: Self.read(endMs)),
            .object([("e", .string("fragmentLoaded")), ("start", .number(start)), ("duration", .number(segmentSeconds)),
                     ("index", .number(index)), ("representationId", .string(representationId)), ("atMs", .number(endMs))]))
        add(.bytesAppended(startTime: Self.read(start) ?? .nan, atMs: Self.read(endMs)),
            .object([("e", .string("bytesAppended")), ("startTime", .number(start)), ("index", .number(index)), ("atMs", .number(endMs))]))
    }

    /// `performance.now()`-style ms since the session began, at Chrome's 0.1 ms resolution.
    private static func performanceMs(_ seconds: Double) -> Double { (seconds * 10_000).rounded() / 10 }

    /// One trace per progress event: ms since the previous event (the first since the request), new bytes.
    private static func trace(_ mark: (atMs: Double, bytes: Double), after previous: (atMs: Double, bytes: Double)) -> DashJSHTTPRequest.Trace {
        DashJSHTTPRequest.Trace(durationMs: read(mark.atMs - previous.atMs) ?? .nan, bytes: read(mark.bytes - previous.bytes) ?? .nan)
    }

    private static func traces(_ marks: [(atMs: Double, bytes: Double)], startMs: Double) -> [DashJSHTTPRequest.Trace] {
        var traces: [DashJSHTTPRequest.Trace] = []
        traces.reserveCapacity(marks.count)
        var previous = (atMs: startMs, bytes: 0.0)
        for mark in marks {
            traces.append(trace(mark, after: previous))
            previous = mark
        }
        return traces
    }

    private static func traceMembers(_ marks: [(atMs: Double, bytes: Double)], startMs: Double) -> DashJSOutputJSON {
        var previous = (atMs: startMs, bytes: 0.0)
        var traces: [DashJSOutputJSON] = []
        for mark in marks {
            traces.append(.object([("s", .number(previous.atMs)), ("d", .number(mark.atMs - previous.atMs)),
                                   ("b", .number(mark.bytes - previous.bytes))]))
            previous = mark
        }
        return .array(traces)
    }

    /// The quality decision's record at session time `seconds`, with the level the player reads then.
    mutating func qualityRecord(atSeconds seconds: Double, bufferSeconds: Double, currentId: String) -> Built {
        play(untilSeconds: seconds)
        var built = record(kind: .quality, atSeconds: seconds, currentId: currentId)
        built.record.bufferLevelSeconds = Self.read(bufferSeconds)
        built.members?.append(("bufferLevel", .number(bufferSeconds)))
        let state = Self.state(forLevel: bufferSeconds)
        if state != bufferState {
            bufferState = state
            built.record.bufferState = state
            built.members?.append(("bufferState", .string(state)))
        }
        return built
    }

    /// The LOADING_PROGRESS record of a progress event at session time `seconds` (the player's level is the last
    /// metric), as a check.
    mutating func progressCheck(_ check: DownloadProgress, atSeconds seconds: Double, representationId: String,
                                currentId: String) -> Check {
        play(untilSeconds: seconds)
        let atMs = Self.dateMs(seconds)
        let requestStartMs = Self.dateMs(requestStartSeconds)
        let mark = (atMs: atMs, bytes: check.receivedBytes.rounded(.down))
        requestTraces.append(Self.trace(mark, after: progress.last ?? (requestStartMs, 0)))
        progress.append(mark)
        let (stamp, members) = next(kind: .abandon, atSeconds: seconds, currentId: currentId)
        let index = Double(check.segmentIndex)
        let bytesTotal = check.sizeBytes.rounded(.down)
        let request = DashJSRecord.AbandonRequest.Progress(
            index: Self.read(index) ?? .nan, firstByteMs: Self.read(progress[0].atMs),
            bytesLoaded: Self.read(mark.bytes) ?? 0, bytesTotal: Self.read(bytesTotal) ?? .nan,
            durationSeconds: Self.read(segmentSeconds), traces: requestTraces)
        if stamp.isFirst { firstCheckRecord = firstRecord(stamp, kind: .abandon, currentId: currentId) }
        if let members {
            checkMembers = members + [("request", .object([
                ("index", .number(index)), ("representationId", .string(representationId)),
                ("startMs", .number(requestStartMs)), ("firstByteMs", .number(progress[0].atMs)),
                ("bytesLoaded", .number(mark.bytes)), ("bytesTotal", .number(bytesTotal)),
                ("duration", .number(segmentSeconds)), ("traces", Self.traceMembers(progress, startMs: requestStartMs)),
            ]))]
        }
        return Check(nowMs: stamp.nowMs, request: request)
    }

    /// A progress check's events, moved out for the replay session to read (a read through the browser would retain
    /// them) and handed back spent by ``checked(_:)``. Most checks have none: their buffer then stays where it is.
    mutating func checkEvents() -> [DashJSRecord.Event] {
        if events.isEmpty { return [] }
        var taken: [DashJSRecord.Event] = []
        swap(&taken, &events)
        return taken
    }

    /// A progress check was answered: its events are spent, and their buffer is kept for the next ones. Removed one
    /// by one: a check has a few at most, and removeAll's generic range replacement costs several times as much. A
    /// check that had none was handed an empty array, not the buffer, which stays.
    mutating func checked(_ spent: consuming [DashJSRecord.Event]) {
        var spent = spent
        if spent.isEmpty { return }
        while !spent.isEmpty { spent.removeLast() }
        events = spent
    }

    /// The members every record has, the session's header on its first, and the events since the last record.
    mutating func record(kind: DashJSRecord.Kind, atSeconds seconds: Double, currentId: String) -> Built {
        let (stamp, members) = next(kind: kind, atSeconds: seconds, currentId: currentId)
        if stamp.isFirst {
            var record = firstRecord(stamp, kind: kind, currentId: currentId)
            record.events = takeEvents()
            return Built(record: record, members: members)
        }
        return Built(record: DashJSRecord(session: session, seq: stamp.seq, kind: kind, nowMs: stamp.nowMs, events: takeEvents()),
                     members: members)
    }

    /// The session's first record without its events: the header, and the state the session starts in.
    private func firstRecord(_ stamp: Stamp, kind: DashJSRecord.Kind, currentId: String) -> DashJSRecord {
        var record = DashJSRecord(session: session, seq: stamp.seq, kind: kind, nowMs: stamp.nowMs)
        record.header = header
        record.currentRepresentationId = currentId
        record.lowLatencyMode = liveDelaySeconds != nil
        if let liveDelaySeconds { record.liveDelaySeconds = .some(Self.read(liveDelaySeconds)) }
        return record
    }

    /// The next record's seq and clock, and its members with the header's on the session's first and the events'
    /// (taken); the events themselves are taken by ``takeEvents()``.
    private mutating func next(kind: DashJSRecord.Kind, atSeconds seconds: Double,
                               currentId: String) -> (Stamp, [(String, DashJSOutputJSON)]?) {
        seq += 1
        let nowMs = Self.dateMs(seconds)
        let stamp = Stamp(seq: Self.read(Double(seq)), nowMs: Self.read(nowMs), isFirst: !wroteHeader)
        var members: [(String, DashJSOutputJSON)]?
        if writesJSON {
            members = [("session", .string(session))]
            if !wroteHeader { members! += headerMembers + [("currentRepresentationId", .string(currentId))] }
            members! += [("seq", .number(Double(seq))), ("kind", .string(kind.rawValue)), ("nowMs", .number(nowMs)),
                         ("events", .array(eventMembers))]
            eventMembers = []
        }
        wroteHeader = true
        return (stamp, members)
    }

    /// The events since the last record, moved out rather than copied; the next record's get room for a download's
    /// events and a few timeupdates, which appends would otherwise grow step by step.
    private mutating func takeEvents() -> [DashJSRecord.Event] {
        var taken: [DashJSRecord.Event] = []
        swap(&taken, &events)
        events.reserveCapacity(8)
        return taken
    }
}
