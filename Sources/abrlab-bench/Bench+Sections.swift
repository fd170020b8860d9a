import ABRLab
import ABRLabCompare
import ABRLabFormats
import ABRLabResults
import Foundation

extension Bench {
    func decision() throws {
        print("cost per decision (same context, repeated)")
        let video = try SyntheticVideoGenerator().generate(name: "bench")
        var context = DecisionContext(
            segmentIndex: 10, segmentCount: 48, segmentDurationSeconds: 4, ladder: video.ladder, lastLevel: 2,
            bufferSeconds: 12.5, rebufferSeconds: 0, stallCount: 0, elapsedSeconds: 40, estimateKbps: 2500,
            networkQuality: .good, downloads: [], video: video
        )
        let calls = 2_000_000
        let native = BufferBasedStrategy()
        var sink = 0
        // The buffer changes every call so the work cannot be hoisted out of the loop.
        let nativeSeconds = BenchmarkClock.bestSeconds {
            for call in 0..<calls {
                context.bufferSeconds = Double(call & 31)
                sink &+= native.chooseLevel(context)
            }
        }
        print(String(format: "  native bba: %.1f ns per decision", nativeSeconds / Double(calls) * 1e9))
        try luaDecision(context: context, calls: calls)
        if sink == -1 { print(sink) }
    }

    func mpc() throws {
        print("RobustMPC over Pensieve's test traces (pensieve profile, 48 segments, one thread)")
        guard let inputs = try pensieveInputs() else { return }
        let emulator = SessionEmulator(profile: .pensieve, recordsTransitions: false)
        var total = 0.0
        let nativeSeconds = try BenchmarkClock.bestSeconds {
            total = 0
            for trace in inputs.traces {
                var strategy = RobustMPCStrategy(lookaheadOffset: 1)
                let result = try emulator.run(&strategy, strategyID: "mpc", trace: trace, video: inputs.video)
                total += SessionMetrics(result: result, qoe: .linear, ladder: inputs.video.ladder).qoeTotal
            }
        }
        let decisions = Double(inputs.traces.count * 48)
        print(String(format: "  native: %.3f s for %d traces, %.2f µs per decision (mean QoE %.4f)",
                     nativeSeconds, inputs.traces.count, nativeSeconds / decisions * 1e6, total / Double(inputs.traces.count)))
        try luaMPC(traces: inputs.traces, video: inputs.video, emulator: emulator)
    }

    func compare() throws {
        print("compare of five strategies over Sabre's 3G traces (all cores, CSV written)")
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let plan = try comparePlan(traceArguments: [folder.path], video: movie.path)
        let seconds = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: ProcessInfo.processInfo.activeProcessorCount) }
        print(String(format: "  %.3f s for %d sessions", seconds, plan.sessionCount) + " (" + plan.strategies.map(\.id).joined(separator: ", ") + ")")
    }

    func jobs() throws {
        print("--jobs 1 against --jobs 2 (five strategies over Sabre's 3G traces, CSV written)")
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let plan = try comparePlan(traceArguments: [folder.path], video: movie.path)
        let one = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: 1) }
        let two = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: 2) }
        print(String(format: "  jobs 1: %.3f s, jobs 2: %.3f s, speed-up %.2f×", one, two, one / two))
    }

    func memory() throws {
        print("peak RSS of a compare (conservative, bba-native) over Sabre's FCC traces, in a child process")
        guard let hd = dataset("sabre/mmsys18/hd_fs"), let sd = dataset("sabre/mmsys18/sd_fs"), let movie = dataset("sabre/movie.json") else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let small = scratch.appendingPathComponent("fcc200")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        for index in 0..<200 {
            let name = String(format: "trace%04d.json", index)
            try FileManager.default.createSymbolicLink(at: small.appendingPathComponent(name), withDestinationURL: hd.appendingPathComponent(name))
        }
        for (label, traces) in [("200", [small.path]), ("2000", [hd.path, sd.path])] {
            let out = scratch.appendingPathComponent("out-\(label)").path
            let run = try BenchmarkClock.child(
                ["compare", "--strategies", "conservative", "bba-native", "--traces"] + traces
                    + ["--video", movie.path, "--out", out, "--quiet"]
            )
            print("  \(label) traces: " + String(format: "peak RSS %.1f MB, %.2f s, exit %d", Double(run.peakBytes) / 1e6, run.seconds, run.status))
        }
    }

    /// Five strategies: the Lua library's when it is there, else the native ones.
    func comparePlan(traceArguments: [String], video: String) throws -> ExperimentPlan {
        let ids = ["bba", "rb", "bola", "robust_mpc", "conservative"]
        let scripts = ids.dropLast().map { "\(strategies)/\($0).lua" }
        let available = scripts.allSatisfy { FileManager.default.fileExists(atPath: $0) }
        let arguments = available ? scripts + ["conservative"] : ["conservative", "bba-native", "robust_mpc-native"]
        let descriptors = try StrategyResolver(params: ParamAssignments()).resolveWithWarnings(arguments).descriptors
        let traces = try TraceSetResolver().load(traceArguments).traces
        return ExperimentPlan(
            strategies: descriptors, traces: traces, video: try VideoLoader.load(video),
            emulator: SessionEmulator(profile: .default), qoe: .linear, seed: 1
        )
    }

    /// Runs `plan` the way `compare` does, writing CSV (with checkpoints) to a scratch folder.
    func runPlan(_ plan: ExperimentPlan, jobs: Int) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-bench-out-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let results = try ResumableResults(
            directory: scratch, layout: ResumableResults.Layout(segments: .csv, formats: false, timeline: false), identity: "bench", resume: false
        )
        var report = ExperimentReport(strategyIDs: plan.strategies.map(\.id))
        try PlanRun.run(plan, sessions: 0..<plan.sessionCount, jobs: jobs, results: results, bufferTimeline: false, report: &report)
        try results.finish(ranking: report.ranking(seed: 1), manifest: Data("{}".utf8))
    }
}
