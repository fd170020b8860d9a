import ABRLab
import ABRLabCompare
import ABRLabDatasets
import Foundation

/// A reference comparison `abrlab reproduce` runs: the compare runs to make, on datasets named
/// by id, and the reference system's own figures row by row with where each came from. Read from
/// `Datasets/reproduce/NAME.json`, data reviewed like code.
public struct Reproduction: Sendable, Decodable {
    public static let folder = "Datasets/reproduce"

    /// One compare.
    public struct Run: Sendable, Decodable {
        public let label: String
        public let profile: String
        /// Trace arguments: dataset ids (or `ID/FILE`).
        public let traces: [String]
        public let video: String
        public let strategies: [String]
        public let params: [String]
    }

    /// The sessions.csv column a row averages over its strategy's sessions.
    public enum Metric: String, Sendable, Decodable {
        case qoeTotal = "qoe_total"
        case timeAvgScore = "time_avg_score"
        case timeAvgPlayedBitrateKbps = "time_avg_played_bitrate_kbps"
    }

    /// One reference figure: the mean of `metric` over `strategy`'s sessions in run `run`.
    public struct Row: Sendable, Decodable {
        public let run: String
        public let strategy: String
        public let metric: Metric
        /// As the reference gives it: its digits are the precision agreement is judged at.
        public let value: String
        /// Which program printed it.
        public let source: String

        /// Digits after the point in ``value``.
        public var decimals: Int {
            value.firstIndex(of: ".").map { value.distance(from: $0, to: value.endIndex) - 1 } ?? 0
        }
    }

    public let name: String
    public let title: String
    /// How the reference figures were obtained.
    public let provenance: String
    public let runs: [Run]
    public let rows: [Row]

    /// The reproduction `name` shipped in `Datasets/reproduce/`; an unknown name lists the known ones.
    public static func shipped(_ name: String) throws(InputError) -> Reproduction {
        let known = knownNames()
        guard known.contains(name) else {
            throw InputError(file: name, "not a known reproduction; known: \(known.joined(separator: ", "))")
        }
        let path = URL(fileURLWithPath: Defaults.locate(folder)).appendingPathComponent(name + ".json").path
        let reproduction: Reproduction
        do {
            reproduction = try JSONDecoder().decode(Reproduction.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw InputError(file: path, "not a reproduction: \(error)")
        }
        for row in reproduction.rows where !reproduction.runs.contains(where: { $0.label == row.run && $0.strategies.contains(row.strategy) }) {
            throw InputError(file: path, "row \(row.run) \(row.strategy): no run has that label and strategy")
        }
        return reproduction
    }

    /// The shipped reproductions, by name.
    public static func knownNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Defaults.locate(folder))) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The dataset ids the runs read, each once, in order.
    public func datasetIDs(in registry: DatasetRegistry) -> [String] {
        var names: [String] = []
        for run in runs {
            names += run.traces
            names.append(run.video)
            for param in run.params {
                if let value = param.split(separator: "=", maxSplits: 1).last { names.append(String(value)) }
            }
        }
        var ids: [String] = []
        for name in names {
            let dataset = registry.datasets.first { dataset in
                ([dataset.id] + dataset.aliases).contains { (known: String) -> Bool in name == known || name.hasPrefix(known + "/") }
            }
            if let id = dataset?.id, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}
