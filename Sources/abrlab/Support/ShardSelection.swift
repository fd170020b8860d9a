import ABRLab

/// Which shard this process runs: `--shard K/N`, else the cluster's environment — a Slurm
/// array task (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, or `SLURM_ARRAY_TASK_MIN`
/// and `MAX`) or a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, with `--shard-count`).
enum ShardSelection {
    static func resolve(option: String?, count: Int?, environment: [String: String]) throws(InputError) -> Shard? {
        if let option {
            if count != nil { throw InputError(file: "--shard-count", "goes with an index from the environment, not with --shard") }
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
                throw InputError(file: "SLURM_ARRAY_TASK_ID", "is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is; give --shard K/N")
            }
            guard (0..<total).contains(id - minimum) else {
                throw InputError(file: "SLURM_ARRAY_TASK_ID", "task \(id) is not one of \(total) consecutive tasks from \(minimum); submit the array as --array=0-\(total - 1)")
            }
            return try Shard(index: id - minimum, count: total)
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            guard let count else { throw InputError(file: "JOB_COMPLETION_INDEX", "is set; give the number of completions as --shard-count N") }
            return try Shard(index: index, count: count)
        }
        if count != nil {
            throw InputError(file: "--shard-count", "needs SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment; use --shard K/N otherwise")
        }
        return nil
    }
}
