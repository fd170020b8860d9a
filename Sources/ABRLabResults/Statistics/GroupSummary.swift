import ABRLab

/// The shared-link measures of `groups.csv` averaged over the groups a strategy played in (for a
/// mix, every group counts for each of its strategies): its columns of `summary.csv` and the table.
public struct GroupSummary: Equatable, Sendable {
    public var groups: Int
    public var jain: Double
    public var unfairness: Double
    public var inefficiency: Double
    public var instability: Double
    public var qoeFairness: Double
    public var utilisation: Double

    /// The columns `summary.csv` gains in a run whose players share links.
    public static let header = [
        "groups", "jain_mean", "unfairness_mean", "inefficiency_mean", "instability_mean", "qoe_fairness_f_mean", "utilisation_mean",
    ]

    /// Each measure's mean over the groups where it is a number (a measure over no overlap is not).
    public init(_ metrics: [GroupMetrics]) {
        func mean(_ value: (GroupMetrics) -> Double) -> Double {
            let values = metrics.map(value).filter(\.isFinite)
            return values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
        }
        groups = metrics.count
        jain = mean(\.jain)
        unfairness = mean(\.unfairness)
        inefficiency = mean(\.inefficiency)
        instability = mean(\.instability)
        qoeFairness = mean(\.qoeFairness)
        utilisation = mean(\.utilisation)
    }

    /// The strategies of `strategyIDs` that played in a group labelled `label`: the strategy
    /// itself, or a mix's ids joined by `+`.
    public static func members(of label: String, strategyIDs: Set<String>) -> [String] {
        strategyIDs.contains(label) ? [label] : label.split(separator: "+").map(String.init).filter(strategyIDs.contains)
    }

    func addColumns(to row: inout CSVRow) {
        row.add(groups)
        row.add(jain)
        row.add(unfairness)
        row.add(inefficiency)
        row.add(instability)
        row.add(qoeFairness)
        row.add(utilisation)
    }
}
