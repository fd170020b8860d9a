// Decision records in the JSON Lines schema of ../shared/specs/dashjs.md section E.2 (session header, per-record state,
// the E.3 events), as the harness replay.mjs reads them. Only what the Swift rules model is accepted: a record that
// needs L2A, LoL+, a service description, partial segments or a mid-session settings change is refused by name.

public struct DashJSRecord: Sendable {
    public enum Event: Sendable {
        case httpRequest(DashJSHTTPRequest, representationId: String?, atMs: Double?)
        case fragmentLoaded(start: Double, durationSeconds: Double?, representationId: String?, atMs: Double?)
        case bytesAppended(startTime: Double, atMs: Double?)
        case bufferLevel(seconds: Double, atMs: Double?)
        case bufferState(String, atMs: Double?)
        case seeking(atMs: Double?)
        case seeked(atMs: Double?)
        case qualityChangeRendered(representationId: String, atMs: Double?)
        case fragmentLoadingAbandoned(atMs: Double?)
        case playbackQuality(dropped: Double, total: Double, atMs: Double?)
        case clock(atMs: Double?)

        var atMs: Double? {
            switch self {
            case .httpRequest(_, _, let at), .fragmentLoaded(_, _, _, let at), .bytesAppended(_, let at), .bufferLevel(_, let at),
                 .bufferState(_, let at), .seeking(let at), .seeked(let at), .qualityChangeRendered(_, let at),
                 .fragmentLoadingAbandoned(let at), .playbackQuality(_, _, let at), .clock(let at):
                return at
            }
        }
    }

    public struct Header: Sendable {
        public var seed: Double?
        public var settings = DashJSSettings()
        public var isDynamic = false
        public var representations: [DashJSRepresentation] = []
        public var fragmentDurationSeconds = Double.nan
    }

    public struct AbandonRequest: Sendable {
        public var index: Double
        public var representationId: String?
        public var firstByteMs: Double?
        public var bytesLoaded: Double
        public var bytesTotal: Double
        public var durationSeconds: Double?
        public var traces: DashJSTraceLog

        /// The request but its representation id: plain numbers, which a progress check moves without reference
        /// counting.
        public struct Progress: Sendable {
            public var index: Double
            public var firstByteMs: Double?
            public var bytesLoaded: Double
            public var bytesTotal: Double
            public var durationSeconds: Double?
            public var traces: DashJSTraceLog
        }
    }

    public enum Kind: String, Sendable { case quality, abandon, catchup, events }

    public var session: String
    /// The record's `seq` as its JSON text (it may be fractional), nil when absent.
    public var seq: Double?
    public var kind: Kind
    public var nowMs: Double?
    public var events: [Event] = []
    /// The session's header, on its first record only.
    public var header: Header? {
        get { if case .some(let header) = boxedHeader { header } else { nil } }
        set { boxedHeader = newValue.map { .some($0) } ?? .none }
    }
    public var currentRepresentationId: String?
    public var bufferLevelSeconds: Double?
    public var bufferState: String?
    public var lowLatencyMode: Bool?
    public var playbackRate: Double?
    public var currentLiveLatencySeconds: Double?
    /// `liveDelay` present in the record: nil inside means JSON null (NaN to dash.js).
    public var liveDelaySeconds: Double??
    public var timeSeconds: Double?
    public var isPaused: Bool?
    public var isSeeking: Bool?
    public var playbackStalled: Bool?
    /// Present: nil inside means JSON null (the metric's level is used).
    public var playbackBufferLevelSeconds: Double??
    public var playbackQuality: (dropped: Double, total: Double)?
    public var request: AbandonRequest?
    public var probe = true
    public var followDecision = true
    /// The header out of line: its settings outweigh the rest of a record, which is built and copied at every check.
    private var boxedHeader = BoxedHeader.none

    private indirect enum BoxedHeader: Sendable {
        case none
        case some(Header)
    }

    init(session: String, seq: Double?, kind: Kind, nowMs: Double?, events: [Event] = []) {
        self.session = session
        self.seq = seq
        self.kind = kind
        self.nowMs = nowMs
        self.events = events
    }
}

extension DashJSRecord.AbandonRequest {
    init(_ progress: Progress, representationId: String?) {
        self.init(index: progress.index, representationId: representationId, firstByteMs: progress.firstByteMs,
                  bytesLoaded: progress.bytesLoaded, bytesTotal: progress.bytesTotal, durationSeconds: progress.durationSeconds,
                  traces: progress.traces)
    }
}
