import ABRLab
import Foundation

/// Reads `sessions.csv` back into an ``ExperimentReport``, so summaries of a resumed run or of
/// merged shards come from the same numbers an uninterrupted run keeps in memory. Columns are
/// found by name; only the session rows are held, one at a time.
public enum SessionsCSVReader {
    /// Adds every row of the first `length` bytes of `url` to `report`; returns the number of
    /// rows read. A header that differs from ``SessionCSV/sessionsHeader`` or a malformed row
    /// is an error naming the file and line.
    @discardableResult
    public static func read(_ url: URL, length: UInt64? = nil, into report: inout ExperimentReport) throws(InputError) -> Int {
        var reader = try CSVRecordReader(url: url, length: length)
        defer { reader.close() }
        guard let header = try reader.next(), header == SessionCSV.sessionsHeader || header == SessionCSV.groupedSessionsHeader else {
            throw InputError(file: url.path, line: 1, "not a sessions.csv header of this abrlab version")
        }
        let grouped = header == SessionCSV.groupedSessionsHeader
        // Players' turns among their strategy's in the group being read (``ExperimentReport/playerKey(trace:turn:)``).
        var group = ""
        var turns: [String: Int] = [:]
        let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        var count = 0
        while true {
            let line = reader.line
            guard let fields = try reader.next() else { break }
            guard fields.count == header.count else {
                throw InputError(file: url.path, line: line, "has \(fields.count) fields, the header \(header.count)")
            }
            func text(_ name: String) -> String { column[name].map { fields[$0] } ?? "" }
            func number(_ name: String) throws(InputError) -> Double {
                // CSVRow writes NaN as an empty field.
                if text(name).isEmpty { return .nan }
                guard let value = Double(text(name)) else { throw InputError(file: url.path, line: line, "\(name) is not a number: '\(text(name))'") }
                return value
            }
            func integer(_ name: String) throws(InputError) -> Int {
                guard let value = Int(text(name)) else { throw InputError(file: url.path, line: line, "\(name) is not an integer: '\(text(name))'") }
                return value
            }
            var metrics: SessionMetrics?
            if !text("segments").isEmpty {
                let segments = try integer("segments")
                let total = try number("qoe_total")
                metrics = SessionMetrics(
                    segments: segments, qoeTotal: total,
                    qoeMean: try number("qoe_per_segment"),
                    averageBitrateKbps: try number("avg_bitrate_kbps"), rebufferSeconds: try number("rebuffer_s"),
                    rebufferRatio: try number("rebuffer_ratio"), stallCount: try integer("stalls"),
                    switchCount: try integer("switches"), startupSeconds: try number("startup_s"),
                    liveLatencySeconds: text("live_latency_s").isEmpty ? nil : try number("live_latency_s"),
                    playbackRateDeviation: text("playback_rate_deviation").isEmpty ? nil : try number("playback_rate_deviation")
                )
            }
            let error = text("error")
            var trace = text("trace")
            if grouped {
                if text("group") != group {
                    group = text("group")
                    turns = [:]
                }
                turns[text("strategy"), default: 0] += 1
                trace = ExperimentReport.playerKey(trace: trace, turn: turns[text("strategy")]!)
            }
            report.add(strategyID: text("strategy"), traceName: trace, metrics: metrics, error: error.isEmpty ? nil : error)
            count += 1
        }
        return count
    }
}
