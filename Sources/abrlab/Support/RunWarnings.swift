import ABRLab

/// A compare's warnings (a trace whose values look like the wrong unit, a video that is not
/// Pensieve's, a script under a native id): printed on stderr whatever `--quiet` says, which
/// silences only progress, and recorded in `run.json` under `warnings`.
///
/// The plan's own warnings come first, then those of the traces in run order. A shard records
/// the plan's and its own traces', so the shards' lists joined in shard order, each line kept
/// once (``merged(_:)``), are the unsharded run's list: `merge` writes that.
struct RunWarnings {
    /// One line per warning as printed (without the `abrlab: ` prefix), each once.
    let lines: [String]

    init(plan: [InputWarning], traces: [InputWarning]) {
        lines = Self.merged([(plan + traces).map(\.description)])
    }

    func print() {
        lines.forEach(CommandFailure.warn)
    }

    /// The lists joined in order, a line that appeared before left out.
    static func merged(_ lists: [[String]]) -> [String] {
        var seen = Set<String>()
        return lists.flatMap { $0 }.filter { seen.insert($0).inserted }
    }
}
