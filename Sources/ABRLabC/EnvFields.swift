import ABRLab

/// The flat float64 layouts the C interface writes, each declared once here as a table that
/// the layouts call hands Python by name: the decision context (the `Dict` observation, SI
/// units) and the segment record (`info`, segments.csv's columns and units).
enum EnvFields {
    /// Downloads the context's history fields hold, newest last (Pensieve's `S_LEN`).
    static let historyLength = 8

    /// The context's fields, in the row's order. Each that carries a field of the Lua API's ctx
    /// (api.c) names it, and a test holds the two together (every ctx field carried or left out
    /// for a reason): the same quantity, in SI units (bps for kbps), 0-based where Lua is 1-based.
    static let context: [ContextField] = [
        .scalar("segment_index", lua: "segment_index") { Double($0.segmentIndex) },
        .scalar("segment_count", lua: "segment_count") { Double($0.segmentCount) },
        .scalar("segments_left", lua: nil) { Double($0.segmentCount - $0.segmentIndex) },
        .scalar("last_level", lua: "last_level", low: -1) { Double($0.lastLevel ?? -1) },
        .scalar("buffer_s", lua: "buffer_s") { $0.bufferSeconds },
        .scalar("max_buffer_s", lua: "max_buffer_s") { $0.maxBufferSeconds },
        .scalar("segment_duration_s", lua: "segment_duration_s") { $0.segmentDurationSeconds },
        .scalar("rebuffer_s", lua: "rebuffer_s") { $0.rebufferSeconds },
        .scalar("stall_count", lua: "stall_count") { Double($0.stallCount) },
        .scalar("stall_s", lua: nil) { $0.stallSeconds },
        .scalar("playback_started", lua: nil) { $0.playbackStartSeconds == nil ? 0 : 1 },
        .scalar("playback_start_s", lua: nil) { $0.playbackStartSeconds ?? 0 },
        .scalar("elapsed_s", lua: "elapsed_s") { $0.elapsedSeconds },
        .scalar("estimate_bps", lua: "estimate_kbps") { $0.estimateKbps * 1000 },
        .scalar("network_quality", lua: "network_quality") { Double($0.networkQuality.rawValue) },
        .scalar("throughput_estimate_bps", lua: "throughput_estimate_kbps") { ($0.throughputEstimateKbps ?? 0) * 1000 },
        .scalar("latency_estimate_s", lua: "latency_estimate_s") { $0.latencyEstimateSeconds ?? 0 },
        .scalar("live_latency_s", lua: "live_latency_s") { $0.live?.latencySeconds ?? 0 },
        .scalar("live_target_latency_s", lua: "target_latency_s") { $0.live?.targetLatencySeconds ?? 0 },
        .scalar("live_playback_rate", lua: "playback_rate") { $0.live?.playbackRate ?? 0 },
        .scalar("live_edge_s", lua: "live_edge_s") { $0.live?.liveEdgeSeconds ?? 0 },
        .scalar("live_playhead_s", lua: "playhead_s") { $0.live?.playheadSeconds ?? 0 },
        ContextField(name: "ladder_bps", lua: "levels_kbps", length: .levels) { context, out in
            for level in 0..<context.levelCount { out[level] = context.ladder[level].bitrateKbps * 1000 }
        },
        ContextField(name: "next_sizes_bytes", lua: "size_bytes", length: .levels) { context, out in
            let next = min(context.segmentIndex, max(context.segmentCount - 1, 0))
            for level in 0..<context.levelCount { out[level] = Double(context.sizeBytes(segment: next, level: level)) }
        },
        ContextField(name: "throughput_history_bps", lua: "throughputs_kbps", length: .history) { context, out in
            history(context, to: out) { $0.throughputKbps * 1000 }
        },
        ContextField(name: "download_time_history_s", lua: "download_times_s", length: .history) { context, out in
            history(context, to: out) { $0.downloadTimeSeconds }
        },
    ]

    /// Writes the last ``historyLength`` downloads' `value`s, oldest first, zero before the first.
    private static func history(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>, _ value: (DownloadRecord) -> Double) {
        let recent = context.downloads.suffix(historyLength)
        let pad = historyLength - recent.count
        for slot in 0..<pad { out[slot] = 0 }
        for (offset, download) in recent.enumerated() { out[pad + offset] = value(download) }
    }

    static func contextLength(levels: Int) -> Int { context.reduce(0) { $0 + $1.count(levels: levels) } }

    /// Writes `context` at `out` in the layout above.
    static func write(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>) {
        var offset = 0
        for field in self.context {
            field.write(context, out + offset)
            offset += field.count(levels: context.levelCount)
        }
    }

    /// The segment record's columns, in order: segments.csv's numeric columns (segment and
    /// level 1-based, its units) and `buffer_s`, the buffer the next decision sees; then the
    /// `live` profile's columns (NaN elsewhere); then `qoe` and `qoe_total`, NaN until known (a
    /// whole-session model scores at the episode's end, and `qoe_total` comes at the end).
    static let record: [RecordField] = [
        .segment("segment") { Double($0.index + 1) },
        .segment("level") { Double($0.level + 1) },
        .segment("bitrate_kbps") { $0.bitrateKbps },
        .segment("size_bytes") { Double($0.sizeBytes) },
        .segment("download_start_s") { $0.downloadStartSeconds },
        .segment("download_end_s") { $0.downloadEndSeconds },
        .segment("download_time_s") { $0.downloadTimeSeconds },
        .segment("latency_s") { $0.latencySeconds },
        .segment("throughput_kbps") { $0.throughputKbps },
        .segment("buffer_before_s") { $0.bufferBeforeSeconds },
        .segment("buffer_after_s") { $0.bufferAfterSeconds },
        .segment("rebuffer_s") { $0.rebufferSeconds },
        .segment("wait_s") { $0.waitSeconds },
        .segment("estimate_kbps") { $0.estimateKbps },
        .segment("requests") { Double($0.requests) },
        .segment("wasted_bytes") { $0.wastedBytes },
        RecordField(name: "buffer_s", source: .buffer),
        .live("live_latency_s") { $0.latencySeconds },
        .live("playback_rate") { $0.playbackRate },
        .live("playhead_s") { $0.playheadSeconds },
        .live("production_wait_s") { $0.productionWaitSeconds },
        RecordField(name: "qoe", source: .segmentScore),
        RecordField(name: "qoe_total", source: .sessionScore),
    ]

    /// The columns `info` holds at every step of a session (the live ones on a live profile);
    /// the others it holds only when known.
    static func infoAlways(live: Bool) -> [String] {
        record.filter { field in
            switch field.source {
            case .segment, .buffer: true
            case .live: live
            case .segmentScore, .sessionScore: false
            }
        }.map(\.name)
    }

    /// The columns `info` holds only at the steps that know them: never NaN in `info`.
    static var infoWhenKnown: [String] {
        record.filter { field in
            switch field.source {
            case .segmentScore, .sessionScore: true
            case .segment, .buffer, .live: false
            }
        }.map(\.name)
    }

    /// Writes a step's record at `out`: the segment it delivered (nil when none arrived, as
    /// when a live seek skipped it) and its scores; a field with no value is NaN.
    static func write(_ row: UnsafePointer<SegmentRecord>?, step: EnvStep, bufferSeconds: Double, to out: UnsafeMutablePointer<Double>) {
        for (index, field) in record.enumerated() {
            out[index] = switch field.source {
            case .segment(let value): row.map { value($0.pointee) } ?? .nan
            case .live(let value): row?.pointee.live.map(value) ?? .nan
            case .buffer: bufferSeconds
            case .segmentScore: row == nil ? .nan : step.segmentScore ?? .nan
            case .sessionScore: step.qoeTotal ?? .nan
            }
        }
    }

    /// Writes NaN over a record (a step that reset its slot instead).
    static func writeEmptyRecord(to out: UnsafeMutablePointer<Double>) {
        for index in record.indices { out[index] = .nan }
    }
}

/// One field of the decision context's row.
struct ContextField: Sendable {
    /// How many values it holds.
    enum Length: Sendable {
        case one
        /// One per level of the ladder.
        case levels
        /// ``EnvFields/historyLength``.
        case history
    }

    let name: String
    /// The ctx field of the Lua API it carries; nil for one only the environment gives.
    let lua: String?
    let length: Length
    /// The lowest value it takes (its `Box`'s low).
    var low: Double = 0
    /// Writes its values at the pointer.
    let write: @Sendable (DecisionContext, UnsafeMutablePointer<Double>) -> Void

    static func scalar(_ name: String, lua: String?, low: Double = 0, _ value: @escaping @Sendable (DecisionContext) -> Double) -> Self {
        ContextField(name: name, lua: lua, length: .one, low: low) { context, out in out[0] = value(context) }
    }

    func count(levels: Int) -> Int {
        switch length {
        case .one: 1
        case .levels: levels
        case .history: EnvFields.historyLength
        }
    }

    /// Its shape in the `Dict` observation: a scalar's is empty.
    func shape(levels: Int) -> [Int] { length == .one ? [] : [count(levels: levels)] }
}

/// One column of the segment record, and where its value comes from.
struct RecordField: Sendable {
    enum Source: Sendable {
        /// The delivered segment's row.
        case segment(@Sendable (SegmentRecord) -> Double)
        /// Its live statistics (live profile only).
        case live(@Sendable (LiveSegmentStats) -> Double)
        /// The buffer the next decision sees.
        case buffer
        /// The segment's QoE score, when the model knows it at this step.
        case segmentScore
        /// The session's `qoe_total`, at its last step.
        case sessionScore
    }

    let name: String
    let source: Source

    static func segment(_ name: String, _ value: @escaping @Sendable (SegmentRecord) -> Double) -> Self { RecordField(name: name, source: .segment(value)) }
    static func live(_ name: String, _ value: @escaping @Sendable (LiveSegmentStats) -> Double) -> Self { RecordField(name: name, source: .live(value)) }
}
