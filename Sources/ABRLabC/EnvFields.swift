import ABRLab

/// The flat float64 layouts the C interface writes, each declared once here, as an enum whose
/// every case has its name and its value (the switches are exhaustive), that the layouts call
/// hands Python by name: the decision context (the `Dict` observation, SI units) and the
/// segment record (`info`, segments.csv's columns and units). Plain enums, not tables of
/// closures: writing them costs no reference counting, which threads stepping sessions at once
/// would contend on.
enum EnvFields {
    /// Downloads the context's history fields hold, newest last (Pensieve's `S_LEN`).
    static let historyLength = 8

    /// The context's fields, in the row's order.
    static let context = ContextField.allCases

    /// The record's columns, in order.
    static let record = RecordField.allCases

    static func contextLength(levels: Int) -> Int { context.reduce(0) { $0 + $1.count(levels: levels) } }

    /// Writes `context` at `out` in the layout of ``ContextField``. The loops run over raw
    /// values, not the arrays above, so a step touches no shared reference count.
    static func write(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>) {
        var offset = 0
        for raw in 0..<contextCount {
            let field = ContextField(rawValue: raw)!
            field.write(context, to: out + offset)
            offset += field.count(levels: context.levelCount)
        }
    }

    static let contextCount = ContextField.allCases.count
    static let recordCount = RecordField.allCases.count

    /// The columns `info` holds at every step of a session (the live ones on a live profile);
    /// the others it holds only when known.
    static func infoAlways(live: Bool) -> [String] {
        record.filter { field in
            switch field.presence {
            case .always: true
            case .live: live
            case .whenKnown: false
            }
        }.map(\.name)
    }

    /// The columns `info` holds only at the steps that know them: never NaN in `info`.
    static var infoWhenKnown: [String] { record.filter { $0.presence == .whenKnown }.map(\.name) }

    /// Writes a step's record at `out`: the segment it delivered (nil when none arrived, as
    /// when a live seek skipped it) and its scores; a field with no value is NaN. Field by
    /// field, in place: every session writes one at every step.
    static func write(_ row: UnsafePointer<SegmentRecord>?, step: EnvStep, bufferSeconds: Double, to out: UnsafeMutablePointer<Double>) {
        func put(_ field: RecordField, _ value: Double) { out[field.rawValue] = value }
        writeEmptyRecord(to: out)
        put(.buffer, bufferSeconds)
        put(.qoeTotal, step.qoeTotal ?? .nan)
        guard let segment = row else { return }
        put(.segment, Double(segment.pointee.index + 1))
        put(.level, Double(segment.pointee.level + 1))
        put(.bitrate, segment.pointee.bitrateKbps)
        put(.size, Double(segment.pointee.sizeBytes))
        put(.downloadStart, segment.pointee.downloadStartSeconds)
        put(.downloadEnd, segment.pointee.downloadEndSeconds)
        put(.downloadTime, segment.pointee.downloadTimeSeconds)
        put(.latency, segment.pointee.latencySeconds)
        put(.throughput, segment.pointee.throughputKbps)
        put(.bufferBefore, segment.pointee.bufferBeforeSeconds)
        put(.bufferAfter, segment.pointee.bufferAfterSeconds)
        put(.rebuffer, segment.pointee.rebufferSeconds)
        put(.wait, segment.pointee.waitSeconds)
        put(.estimate, segment.pointee.estimateKbps)
        put(.requests, Double(segment.pointee.requests))
        put(.wastedBytes, segment.pointee.wastedBytes)
        if let live = segment.pointee.live {
            put(.liveLatency, live.latencySeconds)
            put(.playbackRate, live.playbackRate)
            put(.playhead, live.playheadSeconds)
            put(.productionWait, live.productionWaitSeconds)
        }
        put(.qoe, step.segmentScore ?? .nan)
    }

    /// Writes NaN over a record (a step that reset its slot instead).
    static func writeEmptyRecord(to out: UnsafeMutablePointer<Double>) {
        for index in 0..<recordCount { out[index] = .nan }
    }
}

/// One field of the decision context's row. Each that carries a field of the Lua API's ctx
/// (api.c) names it (``lua``), and a test holds the two together (every ctx field carried or
/// left out for a reason): the same quantity, in SI units (bps for kbps), 0-based where Lua is
/// 1-based.
enum ContextField: Int, CaseIterable {
    case segmentIndex, segmentCount, segmentsLeft, lastLevel, buffer, maxBuffer, segmentDuration, rebuffer, stallCount, stall
    case playbackStarted, playbackStart, elapsed, estimate, networkQuality, throughputEstimate, latencyEstimate
    case liveLatency, liveTargetLatency, livePlaybackRate, liveEdge, livePlayhead
    case ladder, nextSizes, throughputHistory, downloadTimeHistory

    var name: String {
        switch self {
        case .segmentIndex: "segment_index"
        case .segmentCount: "segment_count"
        case .segmentsLeft: "segments_left"
        case .lastLevel: "last_level"
        case .buffer: "buffer_s"
        case .maxBuffer: "max_buffer_s"
        case .segmentDuration: "segment_duration_s"
        case .rebuffer: "rebuffer_s"
        case .stallCount: "stall_count"
        case .stall: "stall_s"
        case .playbackStarted: "playback_started"
        case .playbackStart: "playback_start_s"
        case .elapsed: "elapsed_s"
        case .estimate: "estimate_bps"
        case .networkQuality: "network_quality"
        case .throughputEstimate: "throughput_estimate_bps"
        case .latencyEstimate: "latency_estimate_s"
        case .liveLatency: "live_latency_s"
        case .liveTargetLatency: "live_target_latency_s"
        case .livePlaybackRate: "live_playback_rate"
        case .liveEdge: "live_edge_s"
        case .livePlayhead: "live_playhead_s"
        case .ladder: "ladder_bps"
        case .nextSizes: "next_sizes_bytes"
        case .throughputHistory: "throughput_history_bps"
        case .downloadTimeHistory: "download_time_history_s"
        }
    }

    /// The ctx field of the Lua API it carries; nil for one only the environment gives.
    var lua: String? {
        switch self {
        case .segmentIndex, .segmentCount, .lastLevel, .buffer, .maxBuffer, .segmentDuration, .rebuffer, .stallCount, .elapsed,
             .networkQuality, .latencyEstimate, .liveLatency, .liveEdge:
            name
        case .estimate: "estimate_kbps"
        case .throughputEstimate: "throughput_estimate_kbps"
        case .liveTargetLatency: "target_latency_s"
        case .livePlaybackRate: "playback_rate"
        case .livePlayhead: "playhead_s"
        case .ladder: "levels_kbps"
        case .nextSizes: "size_bytes"
        case .throughputHistory: "throughputs_kbps"
        case .downloadTimeHistory: "download_times_s"
        case .segmentsLeft, .stall, .playbackStarted, .playbackStart: nil
        }
    }

    /// The lowest value it takes (its `Box`'s low).
    var low: Double { self == .lastLevel ? -1 : 0 }

    func count(levels: Int) -> Int {
        switch self {
        case .ladder, .nextSizes: levels
        case .throughputHistory, .downloadTimeHistory: EnvFields.historyLength
        default: 1
        }
    }

    /// Its shape in the `Dict` observation: a scalar's is empty.
    func shape(levels: Int) -> [Int] {
        switch self {
        case .ladder, .nextSizes, .throughputHistory, .downloadTimeHistory: [count(levels: levels)]
        default: []
        }
    }

    /// Writes its ``count(levels:)`` values at `out`.
    func write(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>) {
        switch self {
        case .segmentIndex: out[0] = Double(context.segmentIndex)
        case .segmentCount: out[0] = Double(context.segmentCount)
        case .segmentsLeft: out[0] = Double(context.segmentCount - context.segmentIndex)
        case .lastLevel: out[0] = Double(context.lastLevel ?? -1)
        case .buffer: out[0] = context.bufferSeconds
        case .maxBuffer: out[0] = context.maxBufferSeconds
        case .segmentDuration: out[0] = context.segmentDurationSeconds
        case .rebuffer: out[0] = context.rebufferSeconds
        case .stallCount: out[0] = Double(context.stallCount)
        case .stall: out[0] = context.stallSeconds
        case .playbackStarted: out[0] = context.playbackStartSeconds == nil ? 0 : 1
        case .playbackStart: out[0] = context.playbackStartSeconds ?? 0
        case .elapsed: out[0] = context.elapsedSeconds
        case .estimate: out[0] = context.estimateKbps * 1000
        case .networkQuality: out[0] = Double(context.networkQuality.rawValue)
        case .throughputEstimate: out[0] = (context.throughputEstimateKbps ?? 0) * 1000
        case .latencyEstimate: out[0] = context.latencyEstimateSeconds ?? 0
        case .liveLatency: out[0] = context.live?.latencySeconds ?? 0
        case .liveTargetLatency: out[0] = context.live?.targetLatencySeconds ?? 0
        case .livePlaybackRate: out[0] = context.live?.playbackRate ?? 0
        case .liveEdge: out[0] = context.live?.liveEdgeSeconds ?? 0
        case .livePlayhead: out[0] = context.live?.playheadSeconds ?? 0
        case .ladder:
            for level in 0..<context.levelCount { out[level] = context.ladder[level].bitrateKbps * 1000 }
        case .nextSizes:
            let next = min(context.segmentIndex, max(context.segmentCount - 1, 0))
            for level in 0..<context.levelCount { out[level] = Double(context.sizeBytes(segment: next, level: level)) }
        case .throughputHistory: Self.history(context, to: out) { $0.throughputKbps * 1000 }
        case .downloadTimeHistory: Self.history(context, to: out) { $0.downloadTimeSeconds }
        }
    }

    /// Writes the last ``EnvFields/historyLength`` downloads' `value`s, oldest first, zero before the first.
    private static func history(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>, _ value: (DownloadRecord) -> Double) {
        let recent = context.downloads.suffix(EnvFields.historyLength)
        let pad = EnvFields.historyLength - recent.count
        for slot in 0..<pad { out[slot] = 0 }
        for (offset, download) in recent.enumerated() { out[pad + offset] = value(download) }
    }
}

/// One column of the segment record: segments.csv's numeric columns (segment and level
/// 1-based, its units) and `buffer_s`, the buffer the next decision sees; then the `live`
/// profile's columns (NaN elsewhere); then `qoe` and `qoe_total`, NaN until known (a
/// whole-session model scores at the episode's end, and `qoe_total` comes at the end).
enum RecordField: Int, CaseIterable {
    case segment, level, bitrate, size, downloadStart, downloadEnd, downloadTime, latency, throughput, bufferBefore, bufferAfter
    case rebuffer, wait, estimate, requests, wastedBytes, buffer
    case liveLatency, playbackRate, playhead, productionWait
    case qoe, qoeTotal

    /// When `info` holds it.
    enum Presence {
        /// At every step.
        case always
        /// At every step of a live session.
        case live
        /// At the steps that know it.
        case whenKnown
    }

    var name: String {
        switch self {
        case .segment: "segment"
        case .level: "level"
        case .bitrate: "bitrate_kbps"
        case .size: "size_bytes"
        case .downloadStart: "download_start_s"
        case .downloadEnd: "download_end_s"
        case .downloadTime: "download_time_s"
        case .latency: "latency_s"
        case .throughput: "throughput_kbps"
        case .bufferBefore: "buffer_before_s"
        case .bufferAfter: "buffer_after_s"
        case .rebuffer: "rebuffer_s"
        case .wait: "wait_s"
        case .estimate: "estimate_kbps"
        case .requests: "requests"
        case .wastedBytes: "wasted_bytes"
        case .buffer: "buffer_s"
        case .liveLatency: "live_latency_s"
        case .playbackRate: "playback_rate"
        case .playhead: "playhead_s"
        case .productionWait: "production_wait_s"
        case .qoe: "qoe"
        case .qoeTotal: "qoe_total"
        }
    }

    var presence: Presence {
        switch self {
        case .liveLatency, .playbackRate, .playhead, .productionWait: .live
        case .qoe, .qoeTotal: .whenKnown
        default: .always
        }
    }
}
