import ABRLab

/// The flat float64 layouts the C interface writes: the decision context (the `Dict`
/// observation, SI units) and the segment record (`info`, segments.csv's columns and units).
enum EnvFields {
    /// Downloads the context's history fields hold, newest last (Pensieve's `S_LEN`).
    static let historyLength = 8

    /// Scalar fields of the context, in order; then `ladder_bps` and `next_sizes_bytes` (one
    /// per level) and `throughput_history_bps` and `download_time_history_s` (``historyLength``
    /// each, oldest first, zero before the first downloads).
    static let contextScalars = [
        "segment_index", "segment_count", "segments_left", "last_level", "buffer_s", "max_buffer_s", "segment_duration_s",
        "rebuffer_s", "stall_count", "stall_s", "playback_started", "playback_start_s", "elapsed_s", "estimate_bps",
        "network_quality", "throughput_estimate_bps", "latency_estimate_s", "live_latency_s", "live_target_latency_s",
        "live_playback_rate", "live_edge_s", "live_playhead_s",
    ]

    static func contextLength(levels: Int) -> Int { contextScalars.count + 2 * levels + 2 * historyLength }

    /// Writes `context` at `out` in the layout above.
    static func write(_ context: DecisionContext, to out: UnsafeMutablePointer<Double>) {
        let levels = context.levelCount
        let live = context.live
        let scalars: [Double] = [
            Double(context.segmentIndex), Double(context.segmentCount), Double(context.segmentCount - context.segmentIndex),
            Double(context.lastLevel ?? -1), context.bufferSeconds, context.maxBufferSeconds, context.segmentDurationSeconds,
            context.rebufferSeconds, Double(context.stallCount), context.stallSeconds, context.playbackStartSeconds == nil ? 0 : 1,
            context.playbackStartSeconds ?? 0, context.elapsedSeconds, context.estimateKbps * 1000,
            Double(context.networkQuality.rawValue), (context.throughputEstimateKbps ?? 0) * 1000, context.latencyEstimateSeconds ?? 0,
            live?.latencySeconds ?? 0, live?.targetLatencySeconds ?? 0, live?.playbackRate ?? 0, live?.liveEdgeSeconds ?? 0,
            live?.playheadSeconds ?? 0,
        ]
        var index = 0
        for value in scalars {
            out[index] = value
            index += 1
        }
        for level in 0..<levels { out[index + level] = context.ladder[level].bitrateKbps * 1000 }
        index += levels
        let next = min(context.segmentIndex, max(context.segmentCount - 1, 0))
        for level in 0..<levels { out[index + level] = Double(context.sizeBytes(segment: next, level: level)) }
        index += levels
        let recent = context.downloads.suffix(historyLength)
        let pad = historyLength - recent.count
        for slot in 0..<historyLength { out[index + slot] = 0; out[index + historyLength + slot] = 0 }
        for (offset, download) in recent.enumerated() {
            out[index + pad + offset] = download.throughputKbps * 1000
            out[index + historyLength + pad + offset] = download.downloadTimeSeconds
        }
    }

    /// The segment record's fields, in order: segments.csv's numeric columns (segment and
    /// level 1-based, its units) and `buffer_s`, the buffer the next decision sees; then the
    /// `live` profile's columns (NaN elsewhere); then `qoe` and `qoe_total`, NaN until known (a
    /// whole-session model scores at the episode's end, and `qoe_total` comes at the end).
    static let record = [
        "segment", "level", "bitrate_kbps", "size_bytes", "download_start_s", "download_end_s", "download_time_s", "latency_s",
        "throughput_kbps", "buffer_before_s", "buffer_after_s", "rebuffer_s", "wait_s", "estimate_kbps", "requests",
        "wasted_bytes", "buffer_s", "live_latency_s", "playback_rate", "playhead_s", "production_wait_s", "qoe", "qoe_total",
    ]

    static let bufferField = record.firstIndex(of: "buffer_s")!

    /// Fields every step of a session of `profile` fills (the rest may be NaN).
    static func recordFieldsAlwaysSet(live: Bool) -> Int { live ? record.count - 2 : record.count - 6 }

    /// Writes a step's record at `out`: the segment it delivered (nil when none arrived, as
    /// when a live seek skipped it) and its scores; a field with no value is NaN.
    static func write(_ row: UnsafePointer<SegmentRecord>?, step: EnvStep, bufferSeconds: Double, to out: UnsafeMutablePointer<Double>) {
        let nan = Double.nan
        var index = 0
        func put(_ value: Double) {
            out[index] = value
            index += 1
        }
        guard let segment = row?.pointee else {
            for field in 0..<record.count { out[field] = nan }
            out[bufferField] = bufferSeconds
            out[record.count - 1] = step.qoeTotal ?? nan
            return
        }
        put(Double(segment.index + 1))
        put(Double(segment.level + 1))
        put(segment.bitrateKbps)
        put(Double(segment.sizeBytes))
        put(segment.downloadStartSeconds)
        put(segment.downloadEndSeconds)
        put(segment.downloadTimeSeconds)
        put(segment.latencySeconds)
        put(segment.throughputKbps)
        put(segment.bufferBeforeSeconds)
        put(segment.bufferAfterSeconds)
        put(segment.rebufferSeconds)
        put(segment.waitSeconds)
        put(segment.estimateKbps)
        put(Double(segment.requests))
        put(segment.wastedBytes)
        put(bufferSeconds)
        put(segment.live?.latencySeconds ?? nan)
        put(segment.live?.playbackRate ?? nan)
        put(segment.live?.playheadSeconds ?? nan)
        put(segment.live?.productionWaitSeconds ?? nan)
        put(step.segmentScore ?? nan)
        put(step.qoeTotal ?? nan)
    }

    /// Writes NaN over a record (a step that reset its slot instead).
    static func writeEmptyRecord(to out: UnsafeMutablePointer<Double>) {
        for index in 0..<record.count { out[index] = .nan }
    }
}
