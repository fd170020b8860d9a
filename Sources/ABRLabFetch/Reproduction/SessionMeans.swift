import ABRLab
import ABRLabCompare
import Foundation

/// The mean of each reproduced metric per strategy, over the sessions of a `sessions.csv`.
enum SessionMeans {
    static func read(_ file: URL) throws(InputError) -> [String: [Reproduction.Metric: Double]] {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw InputError(file: file.path, "cannot read the sessions: \(error.localizedDescription)")
        }
        var lines = text.split(separator: "\n").map { CSVFields.split(String($0)) }
        guard !lines.isEmpty else { throw InputError(file: file.path, "no header") }
        let header = lines.removeFirst()
        guard let strategy = header.firstIndex(of: "strategy") else { throw InputError(file: file.path, "no strategy column") }
        let columns = [Reproduction.Metric.qoeTotal, .timeAvgScore, .timeAvgPlayedBitrateKbps].compactMap { metric in
            header.firstIndex(of: metric.rawValue).map { (metric, $0) }
        }
        var sums: [String: [Reproduction.Metric: (sum: Double, count: Int)]] = [:]
        for fields in lines where fields.count == header.count {
            for (metric, column) in columns {
                guard let value = Double(fields[column]) else { continue }
                let old = sums[fields[strategy], default: [:]][metric] ?? (0, 0)
                sums[fields[strategy], default: [:]][metric] = (old.sum + value, old.count + 1)
            }
        }
        return sums.mapValues { $0.mapValues { $0.sum / Double($0.count) } }
    }
}
