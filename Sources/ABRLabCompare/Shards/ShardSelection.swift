import ABRLab

/// Which shard this process runs: `--shard K/N`, else the cluster's environment — a Slurm
/// array task (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, or `SLURM_ARRAY_TASK_MIN`
/// and `MAX`) or a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, with `--shard-count`).
public enum ShardSelection {
    public static func resolve(option: String?, count: Int?, environment: [String: String]) throws(InputError) -> Shard? {
        if let option {
            if count != nil { throw InputError(setting: .shardCount, "goes with an index from the environment, not with \(Setting.shard)") }
            return try Shard(parsing: option)
        }
        func integer(_ name: String) throws(InputError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else { throw InputError(file: name, "'\(text)' is not an integer") }
            return value
        }
        if let id = try integer("SLURM_ARRAY_TASK_ID") {
            let minimum = try integer("SLURM_ARRAY_TASK_MIN") ?? 0
            let maximum = try integer("SLURM_ARRAY_TASK_MAX")
            let taskCount = try integer("SLURM_ARRAY_TASK_COUNT")
            guard let total = count ?? taskCount ?? maximum.map({ $0 - minimum + 1 }) else {
                throw InputError(file: "SLURM_ARRAY_TASK_ID", mentioning: "is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is; give \(Setting.shard) K/N")
            }
            guard (0..<total).contains(id - minimum) else {
                throw InputError(file: "SLURM_ARRAY_TASK_ID", "task \(id) is not one of \(total) consecutive tasks from \(minimum); submit the array as --array=0-\(total - 1)")
            }
            return try Shard(index: id - minimum, count: total)
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            guard let count else { throw InputError(file: "JOB_COMPLETION_INDEX", mentioning: "is set; give the number of completions as \(Setting.shardCount) N") }
            return try Shard(index: index, count: count)
        }
        if count != nil {
            throw InputError(setting: .shardCount, "needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment; use \(Setting.shard) K/N otherwise")
        }
        return nil
    }
}
