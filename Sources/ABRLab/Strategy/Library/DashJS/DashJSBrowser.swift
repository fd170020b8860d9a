// The browser under dash.js 5.1.1 on the `dashjs` profile: what Chrome and dash.js's player tell the ABR rules,
// written as E.2 decision records from the engine's callbacks (../shared/specs/dashjs.md sections E.2, E.3, G).
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
    /// `Date.now()` at the session's start: any fixed epoch; only differences reach the rules.
    static let epochMs = 1_700_000_000_000.0
    static let timeUpdateSeconds = 0.25
    static let stallThresholdSeconds = 0.3

    private let session: String
    private let header: [(String, DashJSOutputJSON)]
    private let segmentSeconds: Double
    private var wroteHeader = false
    private var seq = 0
    private var events: [DashJSOutputJSON] = []
    private var bufferState: String?

    /// Playback since the last append: the level then, and the next timeupdate.
    private var playing = false
    private var appendSeconds = 0.0
    private var appendBufferSeconds = 0.0
    private var nextTickSeconds = 0.0

    /// The request under way: its start, and each progress event's time (integral ms) and cumulative bytes.
    private var requestStartSeconds = 0.0
    private var progress: [(atMs: Double, bytes: Double)] = []

    init(session: String, seed: UInt64, settings: DashJSOutputJSON, ladder: DashJSLadder, segmentSeconds: Double) {
        self.session = session
        self.segmentSeconds = segmentSeconds
        let representations = ladder.representations.map { representation in
            DashJSOutputJSON.object([("id", .string(representation.id)), ("bandwidth", .number(representation.bandwidthBps))])
        }
        header = [("seed", .number(Double(seed % (1 << 32)))), ("settings", settings), ("streamId", .string("p0")),
                  ("mediaType", .string("video")), ("isDynamic", .bool(false)), ("representations", .array(representations)),
                  ("fragmentDuration", .number(segmentSeconds)), ("lowLatencyMode", .bool(false))]
    }

    /// `Date.now()` at session time `seconds`.
    static func dateMs(_ seconds: Double) -> Double { (epochMs + seconds * 1000).rounded(.towardZero) }

    /// The request for a segment leaves at session time `seconds`.
    mutating func requestStarts(atSeconds seconds: Double) {
        requestStartSeconds = seconds
        progress = []
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

    private mutating func bufferLevel(_ seconds: Double, atSeconds at: Double) {
        let atMs = Self.dateMs(at)
        events.append(.object([("e", .string("bufferLevel")), ("level", .number(seconds)), ("atMs", .number(atMs))]))
        let state = Self.state(forLevel: seconds)
        if state != bufferState {
            bufferState = state
            events.append(.object([("e", .string("bufferState")), ("state", .string(state)), ("atMs", .number(atMs))]))
        }
    }

    private static func state(forLevel seconds: Double) -> String { seconds <= stallThresholdSeconds ? "bufferStalled" : "bufferLoaded" }

    /// A request ended at `endSeconds`: delivered, its HttpList entry, MEDIA_FRAGMENT_LOADED, the append and the
    /// new level (spec E.3's order); abandoned, FRAGMENT_LOADING_ABANDONED.
    mutating func downloaded(_ record: DownloadRecord, representationId: String, endSeconds: Double, bufferSeconds: Double) {
        play(untilSeconds: endSeconds)
        let endMs = Self.dateMs(endSeconds)
        if record.abandoned {
            events.append(.object([("e", .string("fragmentLoadingAbandoned")), ("index", .number(Double(record.segmentIndex))),
                                   ("atMs", .number(endMs))]))
            return
        }
        let startSeconds = endSeconds - record.downloadTimeSeconds
        let startMs = Self.dateMs(startSeconds)
        let sizeBytes = Double(record.sizeBytes)
        var marks = progress
        if marks.last.map({ $0.bytes < sizeBytes }) ?? true { marks.append((endMs, sizeBytes)) }
        let timing: DashJSOutputJSON = .object([
            ("transferSize", .number(sizeBytes)), ("decodedBodySize", .number(sizeBytes)),
            ("responseStart", .number(Self.performanceMs(startSeconds + record.latencySeconds))),
            ("responseEnd", .number(Self.performanceMs(endSeconds))),
        ])
        let start = Double(record.segmentIndex) * segmentSeconds
        events.append(.object([
            ("e", .string("httpRequest")), ("startMs", .number(startMs)), ("firstByteMs", .number(marks.first?.atMs ?? endMs)),
            ("endMs", .number(endMs)), ("traces", traces(marks, startMs: startMs)), ("resourceTiming", timing),
            ("fileLoaderType", .string("xhr_loader")), ("type", .string("MediaSegment")),
            ("url", .string("segment-\(record.segmentIndex)-\(representationId).m4s")), ("index", .number(Double(record.segmentIndex))),
            ("duration", .number(segmentSeconds)), ("representationId", .string(representationId)), ("status", .number(200)),
            ("atMs", .number(endMs)),
        ]))
        events.append(.object([("e", .string("fragmentLoaded")), ("start", .number(start)), ("duration", .number(segmentSeconds)),
                               ("index", .number(Double(record.segmentIndex))), ("representationId", .string(representationId)),
                               ("atMs", .number(endMs))]))
        events.append(.object([("e", .string("bytesAppended")), ("startTime", .number(start)),
                               ("index", .number(Double(record.segmentIndex))), ("atMs", .number(endMs))]))
        if !playing { nextTickSeconds = endSeconds + Self.timeUpdateSeconds }
        playing = true
        appendSeconds = endSeconds
        appendBufferSeconds = bufferSeconds
        bufferLevel(bufferSeconds, atSeconds: endSeconds)
    }

    /// `performance.now()`-style ms since the session began, at Chrome's 0.1 ms resolution.
    private static func performanceMs(_ seconds: Double) -> Double { (seconds * 10_000).rounded() / 10 }

    /// One trace per progress event: ms since the previous event (the first since the request), new bytes.
    private func traces(_ marks: [(atMs: Double, bytes: Double)], startMs: Double) -> DashJSOutputJSON {
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
    mutating func qualityRecord(atSeconds seconds: Double, bufferSeconds: Double, currentId: String) -> [(String, DashJSOutputJSON)] {
        play(untilSeconds: seconds)
        var members = record(kind: "quality", atSeconds: seconds, currentId: currentId)
        members.append(("bufferLevel", .number(bufferSeconds)))
        let state = Self.state(forLevel: bufferSeconds)
        if state != bufferState {
            bufferState = state
            members.append(("bufferState", .string(state)))
        }
        return members
    }

    /// The LOADING_PROGRESS record of a progress event at session time `seconds` (the player's level is the last metric).
    mutating func abandonRecord(_ check: DownloadProgress, atSeconds seconds: Double, representationId: String,
                                currentId: String) -> [(String, DashJSOutputJSON)] {
        play(untilSeconds: seconds)
        let atMs = Self.dateMs(seconds)
        progress.append((atMs, check.receivedBytes.rounded(.down)))
        var members = record(kind: "abandon", atSeconds: seconds, currentId: currentId)
        members.append(("request", .object([
            ("index", .number(Double(check.segmentIndex))), ("representationId", .string(representationId)),
            ("startMs", .number(Self.dateMs(requestStartSeconds))), ("firstByteMs", .number(progress[0].atMs)),
            ("bytesLoaded", .number(progress[progress.count - 1].bytes)), ("bytesTotal", .number(check.sizeBytes.rounded(.down))),
            ("duration", .number(segmentSeconds)), ("traces", traces(progress, startMs: Self.dateMs(requestStartSeconds))),
        ])))
        return members
    }

    /// The members every record has, the session's header on its first, and the events since the last record.
    private mutating func record(kind: String, atSeconds seconds: Double, currentId: String) -> [(String, DashJSOutputJSON)] {
        var members: [(String, DashJSOutputJSON)] = [("session", .string(session))]
        if !wroteHeader {
            members += header
            members.append(("currentRepresentationId", .string(currentId)))
            wroteHeader = true
        }
        seq += 1
        members += [("seq", .number(Double(seq))), ("kind", .string(kind)), ("nowMs", .number(Self.dateMs(seconds))),
                    ("events", .array(events))]
        events = []
        return members
    }
}
