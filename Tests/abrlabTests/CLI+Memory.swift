import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension CLI {
    struct MeasuredOutput {
        let status: Int32
        let stderr: String
        /// The process's peak resident memory (`ru_maxrss` from `wait4`), bytes.
        let peakBytes: Int
    }

    /// Runs abrlab from the package root, as ``run(_:environment:)`` does with stdout dropped,
    /// and measures its peak memory. `Process` reaps its children itself, so this spawns the
    /// child and waits for it with `wait4`, which reports that one child's usage.
    static func runMeasuringMemory(_ arguments: [String]) throws -> MeasuredOutput {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        // The shell changes folder and then becomes abrlab (exec), so the pid waited on is abrlab's.
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\" >/dev/null 2>\"$ABRLAB_TEST_STDERR\"", packageRoot.path, binary.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ABRLAB_TEST_STDERR"] = errors.path
        for variable in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX"] {
            environment[variable] = nil
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn failed: \(spawned)"]) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return MeasuredOutput(status: exitStatus, stderr: stderr, peakBytes: usage.ru_maxrss * 1024)
    }
}
