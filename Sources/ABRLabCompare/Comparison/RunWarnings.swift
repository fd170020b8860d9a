import ABRLab

/// A compare's warnings (a trace whose values look like the wrong unit, a video that is not
/// Pensieve's, a script under a native id): printed on stderr whatever `--quiet` says, which
/// silences only progress, and recorded in `run.json` under `warnings`.
///
/// The plan's own warnings come first, then those of the traces in run order. A shard records
/// the plan's and its own traces', so the shards' lists joined in shard order, each line kept
/// once (``merged(_:)``), are the unsharded run's list: `merge` writes that.
public struct RunWarnings {
    /// One line per warning as printed (without the `abrlab: ` prefix), each once.
    public let lines: [String]

    /// The warnings as the front end says them: settings named by `naming`.
    public init(plan: [InputWarning], traces: [InputWarning], naming: (Setting) -> String) {
        lines = Self.merged([(plan + traces).map { $0.described(naming: naming) }])
    }

    /// The lists joined in order, a line that appeared before left out.
    public static func merged(_ lists: [[String]]) -> [String] {
        var seen = Set<String>()
        return lists.flatMap { $0 }.filter { seen.insert($0).inserted }
    }
}
