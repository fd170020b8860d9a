import ABRLab
import ABRLabPlayerKit

/// The CSV text of one session, made on a worker so the ordered writer only appends bytes.
///
/// Segments and levels are 1-based in every file, as in the Lua API (`docs/output.md`).
public struct SessionCSV: Sendable {
    public static let sessionsHeader = [
        "strategy", "trace", "profile", "qoe_model", "segments", "qoe_total", "qoe_per_segment", "avg_bitrate_kbps",
        "rebuffer_s", "rebuffer_ratio", "stalls", "switches", "startup_s", "seed", "error",
    ] + playbackHeader
    /// Sabre's session metrics (see ``PlaybackSummary``), after the columns every profile had first.
    public static let playbackHeader = [
        "session_s", "played_utility", "time_avg_played_utility", "played_bitrate_kbps", "time_avg_played_bitrate_kbps",
        "rebuffer_events", "bitrate_change_kbps", "log_bitrate_change", "over_estimates", "over_estimate_kbps",
        "leq_estimates", "leq_estimate_kbps", "estimate_error_kbps", "rampup_s", "reaction_s", "time_avg_score",
        "live_latency_s", "playback_rate_deviation",
    ]
    public static let segmentsHeader = [
        "strategy", "trace", "segment", "level", "bitrate_kbps", "size_bytes", "download_start_s", "download_end_s",
        "download_time_s", "latency_s", "throughput_kbps", "buffer_before_s", "buffer_after_s", "rebuffer_s",
        "wait_s", "buffer_state", "buffer_progress", "fill_rate_s_per_s", "likely_to_keep_up", "network_active_share",
        "estimate_kbps", "network_quality", "qoe", "requests", "wasted_bytes", "replaced_level",
        "live_latency_s", "playback_rate", "playhead_s", "production_wait_s",
    ]
    /// The buffer sampled at 10 Hz, when asked for.
    public static let timelineHeader = [
        "strategy", "trace", "time_s", "buffer_s", "buffer_state", "progress", "fill_rate_s_per_s", "likely_to_keep_up",
        "network_active",
    ]
    public static let transitionsHeader = ["strategy", "trace", "time_s", "action", "from", "to", "changed"]
    public static let formatsHeader = ["strategy", "trace", "segment", "level", "format", "media_s", "arrival_s"]
    /// `sessions.csv` of a run whose players share links: the group and the player's seat after the trace.
    public static let groupedSessionsHeader = seated(sessionsHeader)
    /// `segments.csv` of a run whose players share links.
    public static let groupedSegmentsHeader = seated(segmentsHeader)
    /// `transitions.csv` of a run whose players share links.
    public static let groupedTransitionsHeader = seated(transitionsHeader)
    /// `formats.csv` of a run whose players share links.
    public static let groupedFormatsHeader = seated(formatsHeader)
    /// `buffer_timeline.csv` of a run whose players share links.
    public static let groupedTimelineHeader = seated(timelineHeader)
    static let seatHeader = ["group", "player"]

    /// A per-session file's header with the seat's columns after `strategy` and `trace`, where
    /// every per-session file of a run whose players share links has them.
    static func seated(_ header: [String]) -> [String] {
        Array(header.prefix(2)) + seatHeader + header.dropFirst(2)
    }

    public let strategyID: String
    public let traceName: String
    public let metrics: SessionMetrics?
    public let error: String?
    public let sessionLine: String
    /// The segment rows and the transitions as UTF-8, the form files are written in: a run's
    /// largest output goes from the worker to the file without a `String` in between.
    public let segmentBytes: [UInt8]
    public let transitionBytes: [UInt8]
    public var segmentLines: String { String(decoding: segmentBytes, as: UTF8.self) }
    public var transitionLines: String { String(decoding: transitionBytes, as: UTF8.self) }
    /// Format-variant changes, one line each; empty when the video's levels carry no formats.
    public let formatLines: String
    /// The 10 Hz buffer time series; empty unless asked for.
    public let timelineLines: String
    /// The `groups.csv` row of the group this session ends; empty for every other session.
    public var groupLines = ""

    /// The rows of `outcome`; `seat` names its group and player when players share links.
    /// Without `segments` the segment rows are left empty, as a run that writes none needs.
    public init(
        outcome: SessionOutcome, profile: String, qoeModel: String, video: Video? = nil, segments writesSegments: Bool = true,
        bufferTimeline: Bool = false, seat: GroupSeat? = nil
    ) {
        strategyID = outcome.strategyID
        traceName = outcome.traceName
        metrics = outcome.metrics
        error = outcome.error

        var row = CSVRow()
        row.add(outcome.strategyID)
        row.add(outcome.traceName)
        row.add(seat)
        row.add(profile)
        row.add(qoeModel)
        if let metrics = outcome.metrics {
            row.add(metrics.segments)
            row.add(metrics.qoeTotal)
            row.add(metrics.qoeMean)
            row.add(metrics.averageBitrateKbps)
            row.add(metrics.rebufferSeconds)
            row.add(metrics.rebufferRatio)
            row.add(metrics.stallCount)
            row.add(metrics.switchCount)
            row.add(metrics.startupSeconds)
        } else {
            for _ in 0..<9 { row.add("") }
        }
        row.add(outcome.seed)
        row.add(outcome.error ?? "")
        Self.addPlayback(outcome.metrics, to: &row)
        sessionLine = row.line

        // The cells every per-session row starts with, checked and quoted once.
        var session = CSVRow()
        session.add(outcome.strategyID)
        session.add(outcome.traceName)
        session.add(seat)
        var segments: [UInt8] = []
        var transitions: [UInt8] = []
        if let result = outcome.result {
            var line = CSVRow(capacity: Self.segmentLineCapacity)
            if writesSegments {
                segments.reserveCapacity(result.segments.count * Self.segmentLineCapacity)
                // A live warm-up's rows are marked by an empty qoe cell: no score counts them.
                let warmupRows = result.warmup?.rowCount ?? 0
                for (row, (segment, score)) in zip(result.segments, outcome.segmentScores).enumerated() {
                    line.start(with: session)
                    Self.addSegment(segment, score: row < warmupRows ? .nan : score, to: &line)
                    line.appendLine(to: &segments)
                }
            }
            for transition in result.transitions {
                line.start(with: session)
                line.add(SessionResult.sessionSeconds(of: transition))
                line.add(transition.action.description)
                line.add(transition.from.description)
                line.add(transition.to.description)
                line.add(transition.didChangeState ? "true" : "false")
                line.appendLine(to: &transitions)
            }
        }
        segmentBytes = segments
        transitionBytes = transitions
        let prefix = session.text + ","
        var formats = ""
        if let result = outcome.result, let video, video.formats.contains(where: { $0 != nil }) {
            for change in FormatTimeline.changes(video: video, session: result) { formats += prefix + change.csvLine }
        }
        formatLines = formats
        var timeline = ""
        if bufferTimeline, let result = outcome.result {
            for sample in BufferTimeline(session: result).samples() { timeline += prefix + sample.csvLine }
        }
        timelineLines = timeline
    }

    /// Room for one segment row: most are 180–260 bytes.
    static let segmentLineCapacity = 320

    /// The fields of one segment row after the session's own (strategy, trace, seat).
    static func addSegment(_ segment: SegmentRecord, score: Double, to row: inout CSVRow) {
        row.add(segment.index + 1)
        row.add(segment.level + 1)
        row.add(segment.bitrateKbps)
        row.add(segment.sizeBytes)
        row.add(segment.downloadStartSeconds)
        row.add(segment.downloadEndSeconds)
        row.add(segment.downloadTimeSeconds)
        row.add(segment.latencySeconds)
        row.add(segment.throughputKbps)
        row.add(segment.bufferBeforeSeconds)
        row.add(segment.bufferAfterSeconds)
        row.add(segment.rebufferSeconds)
        row.add(segment.waitSeconds)
        row.add(segment.bufferState.rawValue)
        row.add(segment.bufferProgress)
        row.add(segment.fillRateSecondsPerSecond)
        row.add(segment.isLikelyToKeepUp ? "true" : "false")
        row.add(segment.networkActiveShare)
        row.add(segment.estimateKbps)
        row.add(segment.networkQuality.name)
        row.add(score)
        row.add(segment.requests)
        row.add(segment.wastedBytes)
        row.add(segment.replacedLevel.map { String($0 + 1) } ?? "")
        row.add(segment.live?.latencySeconds ?? .nan)
        row.add(segment.live?.playbackRate ?? .nan)
        row.add(segment.live?.playheadSeconds ?? .nan)
        row.add(segment.live?.productionWaitSeconds ?? .nan)
    }

    private static func addPlayback(_ metrics: SessionMetrics?, to row: inout CSVRow) {
        guard let metrics, let playback = metrics.playback else {
            for _ in playbackHeader { row.add("") }
            return
        }
        defer {
            row.add(metrics.liveLatencySeconds ?? .nan)
            row.add(metrics.playbackRateDeviation ?? .nan)
        }
        let accuracy = playback.accuracy
        row.add(playback.sessionSeconds)
        row.add(playback.playedUtility)
        row.add(playback.timeAveragePlayedUtility)
        row.add(playback.playedBitrateKbps)
        row.add(playback.timeAveragePlayedBitrateKbps)
        row.add(playback.rebufferEvents)
        row.add(playback.bitrateChangeKbps)
        row.add(playback.logBitrateChange)
        if let accuracy {
            row.add(accuracy.overCount)
            row.add(accuracy.overMeanKbps)
            row.add(accuracy.atOrBelowCount)
            row.add(accuracy.atOrBelowMeanKbps)
            row.add(accuracy.meanErrorKbps)
        } else {
            for _ in 0..<5 { row.add("") }
        }
        row.add(playback.rampUpSeconds ?? .nan)
        row.add(playback.reactionSeconds ?? .nan)
        row.add(metrics.timeAverageScore ?? .nan)
    }
}

/// Where a session sat when players shared links: its group and its seat, both 1-based.
public struct GroupSeat: Equatable, Sendable {
    public var group: Int
    public var player: Int

    public init(group: Int, player: Int) {
        self.group = group
        self.player = player
    }
}

extension CSVRow {
    /// The seat's `group` and `player` cells; nothing for a session that played alone.
    mutating func add(_ seat: GroupSeat?) {
        guard let seat else { return }
        add(seat.group)
        add(seat.player)
    }
}
