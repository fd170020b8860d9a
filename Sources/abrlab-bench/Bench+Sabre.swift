import ABRLab
import ABRLabCompare
import ABRLabFormats
import Foundation

extension Bench {
    /// Sabre's five algorithms (`Strategies/sabre`, then their native twins) over its 86 3G traces
    /// with its `movie.json` under the `sabre` profile, CSV written, on every core; with
    /// `--sabre-py`, beside Sabre's own `sabre.py` doing the same work.
    func sabre() throws {
        print("Sabre's five algorithms over Sabre's 3G traces (sabre profile, all cores, CSV written)")
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let algorithms = ["bola", "bolae", "dynamic", "dynamicdash", "throughput"]
        let scripts = algorithms.map { "\(strategies)/sabre/\($0).lua" }
        guard scripts.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            print("  skipped: \(strategies)/sabre not found")
            return
        }
        let natives = algorithms.map { "sabre/\($0)-native" }
        let resolver = StrategyResolver(params: ParamAssignments())
        let plan = ExperimentPlan(
            strategies: try resolver.resolveWithWarnings(scripts).descriptors,
            traces: try TraceSetResolver().load([folder.path]).traces, video: try VideoLoader.load(movie.path),
            emulator: SessionEmulator(profile: .sabre), qoe: QoEModel(kind: .sabre), seed: 1
        )
        var nativePlan = plan
        nativePlan.strategies = try resolver.resolveWithWarnings(natives).descriptors
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        let seconds = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: jobs) }
        let nativeSeconds = try BenchmarkClock.bestSeconds { try runPlan(nativePlan, jobs: jobs) }
        print(String(format: "  %.3f s for %d sessions (the scripts), %.3f s (their native twins, %.2f×)", seconds, plan.sessionCount, nativeSeconds, seconds / nativeSeconds))

        // Where the time goes: the same sessions of one script with and without the abandonment
        // checks Sabre makes every ≈ 50 ms of download.
        var alone = plan
        alone.strategies = plan.strategies.filter { $0.source == scripts[0] }
        let withChecks = try BenchmarkClock.bestSeconds { try runPlan(alone, jobs: 1) }
        alone.emulator.profile.mechanics = .segmentBuffer(SegmentBufferSettings(abandonment: false))
        let withoutChecks = try BenchmarkClock.bestSeconds { try runPlan(alone, jobs: 1) }
        print(String(format: "  bola.lua alone, one thread: %.3f s with abandonment checks, %.3f s with --no-abandon", withChecks, withoutChecks))
        if let sabrePy = baseline.sabrePy {
            try besideSabre(sabrePy, runs: [
                ("the scripts", scripts, []), ("the native twins", natives, []),
                ("the native twins, --segments-format none (per-session results, as Sabre prints)", natives, ["--segments-format", "none"]),
            ], traces: plan.traces)
        }
    }

    /// The same 430 sessions with Sabre's `movie.json` as whole processes on two cores:
    /// `abrlab compare --profile sabre --jobs 2` for each of `runs` (strategies and extra
    /// arguments), in `--rounds` interleaved rounds around one run of Sabre's `sabre.py` (one
    /// process per session, two at a time, as Sabre is run on a trace set), half before it and
    /// half after.
    private func besideSabre(_ sabrePy: String, runs: [(label: String, strategies: [String], extra: [String])], traces: [NetworkTrace]) throws {
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-sabre-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var wall = Array(repeating: [Double](), count: runs.count)
        var cpu = Array(repeating: [Double](), count: runs.count)
        func round() throws {
            for (index, run) in runs.enumerated() {
                try? FileManager.default.removeItem(at: scratch)
                let child = try BenchmarkClock.child(
                    ["compare", "--profile", "sabre", "--qoe", "sabre", "--strategies"] + run.strategies
                        + ["--traces", folder.path, "--video", movie.path, "--out", scratch.path, "--quiet", "--jobs", "2"] + run.extra
                )
                guard child.status == 0 else { throw InputError(file: "bench", "compare --profile sabre exited with \(child.status)") }
                wall[index].append(child.seconds)
                cpu[index].append(child.cpuSeconds)
            }
        }
        let algorithms = ["bola", "bolae", "dynamic", "dynamicdash", "throughput"]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        guard files.count == traces.count else { throw InputError(file: folder.path, "holds \(files.count) traces, the plan \(traces.count)") }
        let sessions = files.flatMap { file in
            algorithms.map { [sabrePy, "-n", folder.appendingPathComponent(file).path, "-m", movie.path, "-a", $0] }
        }
        // A launcher such as pyenv's shim adds tens of milliseconds to each of the 430 runs, which
        // would be counted as Sabre's time: the real interpreter runs, and is named.
        let found = try BenchmarkClock.output(["-c", "import sys; print(sys.executable); print(sys.version.split()[0])"], executable: baseline.python)
        let lines = found.text.split(separator: "\n").map(String.init)
        guard found.status == 0, lines.count == 2 else { throw InputError(file: baseline.python, "does not run Python") }
        let python = lines[0]
        for _ in 0..<max(1, baseline.rounds / 2) { try round() }
        let sabre = try BenchmarkClock.children(sessions, slots: 2, executable: python)
        guard sabre.status == 0 else { throw InputError(file: sabrePy, "a run exited with \(sabre.status)") }
        for _ in 0..<max(1, baseline.rounds - baseline.rounds / 2) { try round() }
        print(String(format: "  beside %@ under Python %@ (%@; %d processes, 2 at a time): Sabre %.1f s wall, %.1f s CPU",
                     sabrePy, lines[1], python, sessions.count, sabre.seconds, sabre.cpuSeconds))
        for (index, run) in runs.enumerated() {
            let ours = BenchRounds.median(wall[index])
            print(String(format: "  abrlab compare --jobs 2, whole process, %@: %.3f s wall (median of %d, %@ s), %.3f s CPU; %.0f× faster",
                         run.label, ours, wall[index].count, BenchRounds.range(wall[index], "%.3f"), BenchRounds.median(cpu[index]), sabre.seconds / ours))
        }
    }
}
