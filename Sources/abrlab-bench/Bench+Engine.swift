import ABRLab
import Foundation

extension Bench {
    /// The session engine beside an older binary (`--baseline-binary`): the `pensieve`
    /// fixed-level floor and the five-Lua-strategy `default` sweep over Sabre's 3G traces, in
    /// interleaved rounds; then stepping a session from outside against the batch path.
    func engine() throws {
        print("session engine: floor and default sweep beside \(baseline.baselineBinary ?? "no baseline (--baseline-binary)"), \(baseline.rounds) interleaved rounds; stepping from outside against the batch path")
        if let binary = baseline.baselineBinary {
            try floorBeside(binary)
            try sweepBeside(binary, strategies: baseline.baselineStrategiesFolder(for: binary))
        }
        try stepping()
    }

    /// The `floor` section of both binaries, each in a process of its own.
    private func floorBeside(_ binary: String) throws {
        // This build's floor is abrlab-bench's, as is a release's that has one beside its abrlab
        // (76a60e0 on); an older abrlab has it as a subcommand.
        let benchBeside = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("abrlab-bench").path
        let theirs = FileManager.default.isExecutableFile(atPath: benchBeside) ? (benchBeside, [String]()) : (binary, ["bench"])
        func figure(_ executable: String, _ arguments: [String]) throws -> Double {
            let run = try BenchmarkClock.output(arguments + ["--only", "floor"], executable: executable)
            let line = run.text.split(separator: "\n").first { $0.contains("M segments/s") }
            guard run.status == 0, let line, let value = line.split(separator: " ").first.flatMap({ Double($0) }) else {
                throw InputError(file: executable, "bench --only floor printed no figure (exit \(run.status))")
            }
            return value
        }
        let rounds = try BenchRounds(rounds: baseline.rounds, ours: { try figure(BenchmarkClock.selfPath, []) }, theirs: { try figure(theirs.0, theirs.1) })
        print(String(format: "  pensieve fixed-level floor (M segments/s, one thread): this %.2f, baseline %.2f, median ratio %.2f× (this %@, baseline %@)",
                     rounds.oursMedian, rounds.theirsMedian, rounds.medianRatio,
                     BenchRounds.range(rounds.ours, "%.2f"), BenchRounds.range(rounds.theirs, "%.2f")))
    }

    /// `compare` of five Lua strategies over Sabre's 86 3G traces with `movie.json`, CSV
    /// written, on every core: the whole process of each binary, with its own strategies.
    private func sweepBeside(_ binary: String, strategies theirStrategies: String) throws {
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let names = ["bba", "rb", "bola", "robust_mpc", "conservative"]
        for folder in [strategies, theirStrategies] where !names.allSatisfy({ FileManager.default.fileExists(atPath: "\(folder)/\($0).lua") }) {
            print("  skipped the sweep: \(folder) lacks one of \(names.map { $0 + ".lua" }.joined(separator: ", "))")
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-sweep-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var cpu: (ours: [Double], theirs: [Double]) = ([], [])
        func sweep(_ executable: String, _ folderOfScripts: String, ours: Bool) throws -> Double {
            let out = scratch.appendingPathComponent("out")
            try? FileManager.default.removeItem(at: out)
            let run = try BenchmarkClock.child(
                ["compare", "--strategies"] + names.map { "\(folderOfScripts)/\($0).lua" }
                    + ["--traces", folder.path, "--video", movie.path, "--out", out.path, "--quiet"],
                executable: executable
            )
            guard run.status == 0 else { throw InputError(file: executable, "compare exited with \(run.status)") }
            if ours { cpu.ours.append(run.cpuSeconds) } else { cpu.theirs.append(run.cpuSeconds) }
            return run.seconds
        }
        let wall = try BenchRounds(rounds: baseline.rounds, ours: { try sweep(BenchmarkClock.abrlabPath, strategies, ours: true) },
                                   theirs: { try sweep(binary, theirStrategies, ours: false) })
        print(String(format: "  default sweep, 5 Lua strategies × 86 3G traces, CSV written, whole process on %d cores: wall this %.3f s, baseline %.3f s (median ratio %.2f); CPU this %.3f s, baseline %.3f s (median ratio %.2f)",
                     ProcessInfo.processInfo.activeProcessorCount, wall.oursMedian, wall.theirsMedian, wall.medianRatio,
                     BenchRounds.median(cpu.ours), BenchRounds.median(cpu.theirs),
                     BenchRounds.median(zip(cpu.ours, cpu.theirs).map { $0 / $1 })))
    }
}
