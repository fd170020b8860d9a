import ABRLab
import Foundation

extension Ranking {
    /// The columns of `summary.csv`, one row per strategy in table order.
    public static let summaryHeader = [
        "strategy", "rank", "complete", "sessions", "failures", "compared_traces", "qoe_total_mean", "qoe_total_ci_low",
        "qoe_total_ci_high", "qoe_total_median", "avg_bitrate_kbps", "rebuffer_ratio", "switches", "startup_s",
        "baseline", "pairs", "wins", "ties", "losses", "qoe_diff_mean", "qoe_diff_ci_low", "qoe_diff_ci_high", "error",
    ]

    /// `summary.csv`: the header and one row per strategy, ranked ones first.
    public var summaryCSV: String {
        var text = CSVRow.line(Self.summaryHeader + (groupSummaries == nil ? [] : GroupSummary.header))
        let comparisons = Dictionary(self.comparisons.map { ($0.strategyID, $0) }) { first, _ in first }
        for item in summaries {
            var row = CSVRow()
            row.add(item.strategyID)
            row.add(item.rank.map(String.init) ?? "")
            row.add(item.isComplete ? "true" : "false")
            row.add(item.sessions)
            row.add(item.failures)
            row.add(item.comparedSessions)
            row.add(item.qoeTotalMean)
            row.add(item.qoeTotalInterval.lower)
            row.add(item.qoeTotalInterval.upper)
            row.add(item.qoeTotalMedian)
            row.add(item.averageBitrateKbps)
            row.add(item.rebufferRatio)
            row.add(item.switches)
            row.add(item.startupSeconds)
            if let comparison = comparisons[item.strategyID] {
                row.add(comparison.baselineID)
                row.add(comparison.pairs)
                row.add(comparison.wins)
                row.add(comparison.ties)
                row.add(comparison.losses)
                row.add(comparison.meanDifference)
                row.add(comparison.interval.lower)
                row.add(comparison.interval.upper)
            } else {
                for _ in 0..<8 { row.add("") }
            }
            row.add(item.firstError ?? "")
            groupSummaries.map { ($0[item.strategyID] ?? GroupSummary([])).addColumns(to: &row) }
            text += row.line
        }
        return text
    }

    /// `ranked.json` (and `compare --table json`): the ranked table with the same names and
    /// units as `summary.csv`; missing numbers are `null`.
    public func json() -> Data {
        let document = RankingDocument(
            rank_by: rankBy.rawValue, traces: traceCount, compared_traces: comparedTraceCount,
            ranked: .init(ranked.map { RankingDocument.Entry($0) }), incomplete: .init(incomplete.map { RankingDocument.Entry($0) }),
            baseline: Nullable(baselineID), comparisons: .init(comparisons.map { RankingDocument.Pair($0) })
        )
        // Only finite numbers or nil reach the encoder, so it cannot fail.
        return (try? PrettyJSON.encode(document)) ?? Data()
    }
}

/// The shape of `ranked.json`; names follow `summary.csv`.
private struct RankingDocument: Encodable {
    struct Entry: Encodable {
        let strategy: String
        let rank: Nullable<Int>
        let sessions: Int
        let failures: Int
        let compared_traces: Int
        let qoe_total_mean: Nullable<Double>
        let qoe_total_ci_low: Nullable<Double>
        let qoe_total_ci_high: Nullable<Double>
        let qoe_total_median: Nullable<Double>
        let avg_bitrate_kbps: Nullable<Double>
        let rebuffer_ratio: Nullable<Double>
        let switches: Nullable<Double>
        let startup_s: Nullable<Double>
        let error: Nullable<String>

        init(_ summary: StrategySummary) {
            strategy = summary.strategyID
            rank = Nullable(summary.rank)
            sessions = summary.sessions
            failures = summary.failures
            compared_traces = summary.comparedSessions
            qoe_total_mean = finite(summary.qoeTotalMean)
            qoe_total_ci_low = finite(summary.qoeTotalInterval.lower)
            qoe_total_ci_high = finite(summary.qoeTotalInterval.upper)
            qoe_total_median = finite(summary.qoeTotalMedian)
            avg_bitrate_kbps = finite(summary.averageBitrateKbps)
            rebuffer_ratio = finite(summary.rebufferRatio)
            switches = finite(summary.switches)
            startup_s = finite(summary.startupSeconds)
            error = Nullable(summary.firstError)
        }
    }

    struct Pair: Encodable {
        let strategy: String
        let pairs: Int
        let wins: Int
        let ties: Int
        let losses: Int
        let qoe_diff_mean: Nullable<Double>
        let qoe_diff_ci_low: Nullable<Double>
        let qoe_diff_ci_high: Nullable<Double>

        init(_ comparison: PairedComparison) {
            strategy = comparison.strategyID
            pairs = comparison.pairs
            wins = comparison.wins
            ties = comparison.ties
            losses = comparison.losses
            qoe_diff_mean = finite(comparison.meanDifference)
            qoe_diff_ci_low = finite(comparison.interval.lower)
            qoe_diff_ci_high = finite(comparison.interval.upper)
        }
    }

    let rank_by: String
    let traces: Int
    let compared_traces: Int
    /// Element by element: a parameter grid's rows make long lists.
    let ranked: PrettyJSON.ElementWise<Entry>
    let incomplete: PrettyJSON.ElementWise<Entry>
    let baseline: Nullable<String>
    let comparisons: PrettyJSON.ElementWise<Pair>
}

/// Encodes `nil` as JSON `null` (Encodable leaves absent optionals out), so every entry has
/// every key.
private struct Nullable<Value: Encodable>: Encodable {
    let value: Value?

    init(_ value: Value?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

private func finite(_ value: Double) -> Nullable<Double> { Nullable(value.isFinite ? value : nil) }
