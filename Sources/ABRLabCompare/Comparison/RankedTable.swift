import ABRLab
import ABRLabResults
import Foundation

/// The table `compare` prints: strategies that finished every session ranked on the traces
/// they all finished, then the incomplete ones on the traces each finished, with their counts,
/// then the paired comparison against the baseline.
public enum RankedTable {
    public static func render(_ ranking: Ranking, source: Source? = nil) -> String {
        var text = (source?.line ?? "") + header(ranking)
        // Live runs add the mean live latency and mean playback-rate deviation.
        let live = ranking.summaries.contains { $0.liveLatencySeconds != nil }
        var rows = [[
            "#", "strategy", "sessions", "QoE mean [95% CI]", "median", "bitrate kbps", "rebuffer %", "switches", "startup s",
        ] + (live ? ["latency s", "rate dev"] : []) + (ranking.groupSummaries == nil ? [] : ["jain", "util %"])]
        for item in ranking.summaries {
            rows.append([
                item.rank.map(String.init) ?? "-", item.strategyID,
                item.failures > 0 ? "\(item.sessions)/\(item.sessions + item.failures) (\(item.failures) FAILED)" : String(item.sessions),
                "\(number(item.qoeTotalMean)) [\(number(item.qoeTotalInterval.lower)), \(number(item.qoeTotalInterval.upper))]",
                number(item.qoeTotalMedian), number(item.averageBitrateKbps, digits: 0),
                number(item.rebufferRatio * 100), number(item.switches, digits: 1), number(item.startupSeconds),
            ] + (live ? [number(item.liveLatencySeconds ?? .nan, digits: 3), number(item.playbackRateDeviation ?? .nan, digits: 3)] : [])
              + (ranking.groupSummaries.map { summaries in
                  let group = summaries[item.strategyID] ?? GroupSummary([])
                  return [number(group.jain, digits: 3), number(group.utilisation * 100, digits: 1)]
              } ?? []))
        }
        var lines = layout(rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if !ranking.incomplete.isEmpty {
            lines.insert(
                "incomplete, not ranked: failed sessions; statistics on the traces each completed (sessions: completed/all)",
                at: ranking.ranked.count + 1
            )
        }
        if let note = overlapNote(ranking) { lines.insert(note, at: lines.last == "" ? lines.count - 1 : lines.count) }
        text += lines.joined(separator: "\n")
        text += source?.legend(live: live, grouped: ranking.groupSummaries != nil) ?? ""
        if let baselineID = ranking.baselineID, !ranking.comparisons.isEmpty {
            text += "\nagainst \(baselineID)\(incompleteNote(baselineID, ranking)), paired on the traces both completed:\n"
            var pairs = [["strategy", "pairs", "wins", "ties", "losses", "mean QoE diff [95% CI]"]]
            let failures = Dictionary(ranking.summaries.map { ($0.strategyID, $0.failures) }) { first, _ in first }
            for comparison in ranking.comparisons {
                let failures = failures[comparison.strategyID] ?? 0
                pairs.append([
                    comparison.strategyID + (failures > 0 ? " (incomplete)" : ""), String(comparison.pairs),
                    String(comparison.wins), String(comparison.ties), String(comparison.losses),
                    "\(signed(comparison.meanDifference)) [\(signed(comparison.interval.lower)), \(signed(comparison.interval.upper))]",
                ])
            }
            text += layout(pairs, leftColumns: 1)
        }
        for item in ranking.incomplete {
            text += "\n\(item.strategyID): \(item.failures) of \(item.sessions + item.failures) session(s) failed: \(item.firstError ?? "")"
        }
        return text + "\n"
    }

    /// What the ranked rows are compared on; an incomplete strategy never shrinks it.
    public static func header(_ ranking: Ranking) -> String {
        let scope = "ranked by \(ranking.rankBy.rawValue) session QoE on the \(ranking.comparedTraceCount) of \(ranking.traceCount) traces"
        if ranking.incomplete.isEmpty { return scope + " every strategy completed\n" }
        if ranking.ranked.isEmpty { return "no strategy completed every session, so none is ranked\n" }
        return scope + " every complete strategy completed\n"
    }

    /// " (incomplete: 6 of 12 sessions)" when the baseline itself has failed sessions.
    public static func incompleteNote(_ baselineID: String, _ ranking: Ranking) -> String {
        guard let baseline = ranking.incomplete.first(where: { $0.strategyID == baselineID }) else { return "" }
        return " (incomplete: completed \(baseline.sessions) of \(baseline.sessions + baseline.failures) sessions)"
    }

    public static func number(_ value: Double, digits: Int = 2) -> String {
        value.isNaN ? "-" : String(format: "%.\(digits)f", value)
    }

    public static func signed(_ value: Double) -> String {
        value.isNaN ? "-" : String(format: "%+.2f", value)
    }

    /// Left-aligns the first `leftColumns` columns (names) and right-aligns the rest (numbers).
    public static func layout(_ rows: [[String]], leftColumns: Int = 2) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < leftColumns ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
