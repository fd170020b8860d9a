import ABRLab
import Foundation

/// The table `compare` prints: strategies ranked by mean QoE, then the paired comparison
/// against the baseline.
enum RankedTable {
    static func render(summaries: [StrategySummary], comparisons: [PairedComparison], baselineID: String?) -> String {
        let ranked = summaries.sorted { lhs, rhs in
            let left = lhs.qoeMean.isNaN ? -Double.infinity : lhs.qoeMean
            let right = rhs.qoeMean.isNaN ? -Double.infinity : rhs.qoeMean
            return left != right ? left > right : lhs.strategyID < rhs.strategyID
        }
        var rows = [["#", "strategy", "sessions", "QoE mean [95% CI]", "median", "bitrate kbps", "rebuffer %", "switches", "startup s"]]
        for (rank, item) in ranked.enumerated() {
            rows.append([
                String(rank + 1), item.strategyID,
                item.failures > 0 ? "\(item.sessions) (+\(item.failures) failed)" : String(item.sessions),
                "\(number(item.qoeMean)) [\(number(item.qoeInterval.lower)), \(number(item.qoeInterval.upper))]",
                number(item.qoeMedian), number(item.averageBitrateKbps, digits: 0),
                number(item.rebufferRatio * 100), number(item.switches, digits: 1), number(item.startupSeconds),
            ])
        }
        var text = layout(rows)
        if let baselineID, !comparisons.isEmpty {
            text += "\nagainst \(baselineID), paired by trace:\n"
            var pairs = [["strategy", "wins", "ties", "losses", "mean QoE diff [95% CI]"]]
            for comparison in comparisons {
                pairs.append([
                    comparison.strategyID, String(comparison.wins), String(comparison.ties), String(comparison.losses),
                    "\(signed(comparison.meanDifference)) [\(signed(comparison.interval.lower)), \(signed(comparison.interval.upper))]",
                ])
            }
            text += layout(pairs, leftColumns: 1)
        }
        for item in summaries where item.failures > 0 {
            text += "\n\(item.strategyID): \(item.failures) session(s) failed: \(item.firstError ?? "")"
        }
        return text + "\n"
    }

    static func number(_ value: Double, digits: Int = 2) -> String {
        value.isNaN ? "-" : String(format: "%.\(digits)f", value)
    }

    static func signed(_ value: Double) -> String {
        value.isNaN ? "-" : String(format: "%+.2f", value)
    }

    /// Left-aligns the first `leftColumns` columns (names) and right-aligns the rest (numbers).
    static func layout(_ rows: [[String]], leftColumns: Int = 2) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < leftColumns ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
