import ABRLab

/// The `groups.csv` row of a group of players on one link (docs/output.md defines each column).
public enum GroupCSV {
    public static let header = [
        "group", "strategy", "trace", "players", "stagger_s", "finished", "jain", "unfairness", "inefficiency",
        "instability", "qoe_fairness_f", "utilisation", "overlap_s", "error",
    ]

    /// The row of `group`, numbered `number` in the whole run, whose players joined
    /// `staggerSeconds` apart.
    public static func line(_ group: GroupOutcome, number: Int, staggerSeconds: Double) -> String {
        let metrics = group.metrics
        var row = CSVRow()
        row.add(number)
        row.add(group.label)
        row.add(group.traceName)
        row.add(group.players.count)
        row.add(staggerSeconds)
        row.add(group.players.filter { $0.error == nil }.count)
        row.add(metrics.jain)
        row.add(metrics.unfairness)
        row.add(metrics.inefficiency)
        row.add(metrics.instability)
        row.add(metrics.qoeFairness)
        row.add(metrics.utilisation)
        row.add(metrics.overlapSeconds)
        let failed = group.players.enumerated().first { $0.element.error != nil }
        row.add(failed.map { "player \($0.offset + 1): \($0.element.error ?? "")" } ?? "")
        return row.line
    }
}
