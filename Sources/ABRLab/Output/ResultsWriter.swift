import Foundation

/// Writes a comparison's output folder: `sessions.csv`, `segments.csv`, `transitions.csv` as
/// sessions arrive, then `summary.csv` and `run.json`. Nothing appears under its real name
/// until ``finish(summaries:comparisons:manifest:)`` succeeds.
public final class ResultsWriter {
    public static let summaryHeader = [
        "strategy", "sessions", "failures", "qoe_mean", "qoe_ci_low", "qoe_ci_high", "qoe_median",
        "avg_bitrate_kbps", "rebuffer_ratio", "switches", "startup_s", "baseline", "wins", "ties", "losses",
        "qoe_diff_mean", "qoe_diff_ci_low", "qoe_diff_ci_high", "error",
    ]

    public let directory: URL
    private let sessions: AtomicFile
    private let segments: AtomicFile
    private let transitions: AtomicFile
    private let formats: AtomicFile?
    private let timeline: AtomicFile?

    /// `writesFormats` adds `formats.csv`, for videos whose levels carry formats;
    /// `writesTimeline` adds `buffer_timeline.csv`, every session's buffer sampled at 10 Hz.
    public init(directory: URL, writesFormats: Bool = false, writesTimeline: Bool = false) throws(InputError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: directory.path, "cannot create the output folder")
        }
        sessions = try AtomicFile(directory.appendingPathComponent("sessions.csv"))
        segments = try AtomicFile(directory.appendingPathComponent("segments.csv"))
        transitions = try AtomicFile(directory.appendingPathComponent("transitions.csv"))
        try sessions.write(CSVRow.line(SessionCSV.sessionsHeader))
        try segments.write(CSVRow.line(SessionCSV.segmentsHeader))
        try transitions.write(CSVRow.line(SessionCSV.transitionsHeader))
        formats = writesFormats ? try AtomicFile(directory.appendingPathComponent("formats.csv")) : nil
        try formats?.write(CSVRow.line(SessionCSV.formatsHeader))
        timeline = writesTimeline ? try AtomicFile(directory.appendingPathComponent("buffer_timeline.csv")) : nil
        try timeline?.write(CSVRow.line(SessionCSV.timelineHeader))
    }

    public func append(_ session: SessionCSV) throws(InputError) {
        try sessions.write(session.sessionLine)
        try segments.write(session.segmentLines)
        try transitions.write(session.transitionLines)
        try formats?.write(session.formatLines)
        try timeline?.write(session.timelineLines)
    }

    public func finish(summaries: [StrategySummary], comparisons: [PairedComparison], manifest: Data) throws(InputError) {
        let summary = try AtomicFile(directory.appendingPathComponent("summary.csv"))
        try summary.write(Self.summaryCSV(summaries: summaries, comparisons: comparisons))
        let run = try AtomicFile(directory.appendingPathComponent("run.json"))
        try run.write(String(decoding: manifest, as: UTF8.self) + "\n")
        for file in [sessions, segments, transitions, summary, run] + [formats, timeline].compactMap({ $0 }) { try file.commit() }
    }

    /// The text of `summary.csv`: one row per strategy, in run order.
    public static func summaryCSV(summaries: [StrategySummary], comparisons: [PairedComparison]) -> String {
        var text = CSVRow.line(summaryHeader)
        for item in summaries {
            var row = CSVRow()
            row.add(item.strategyID)
            row.add(item.sessions)
            row.add(item.failures)
            row.add(item.qoeMean)
            row.add(item.qoeInterval.lower)
            row.add(item.qoeInterval.upper)
            row.add(item.qoeMedian)
            row.add(item.averageBitrateKbps)
            row.add(item.rebufferRatio)
            row.add(item.switches)
            row.add(item.startupSeconds)
            if let comparison = comparisons.first(where: { $0.strategyID == item.strategyID }) {
                row.add(comparison.baselineID)
                row.add(comparison.wins)
                row.add(comparison.ties)
                row.add(comparison.losses)
                row.add(comparison.meanDifference)
                row.add(comparison.interval.lower)
                row.add(comparison.interval.upper)
            } else {
                for _ in 0..<7 { row.add("") }
            }
            row.add(item.firstError ?? "")
            text += row.line
        }
        return text
    }
}
