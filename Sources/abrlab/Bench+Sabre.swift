import ABRLab
import Foundation

extension Abrlab.Bench {
    /// Sabre's five algorithms (`Strategies/sabre`) over its 86 3G traces under the `sabre`
    /// profile, CSV written, on every core: the work Sabre itself does in about 75 s.
    func sabre() throws {
        print("Sabre's five algorithms over Sabre's 3G traces (sabre profile, all cores, CSV written)")
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/mmsys18/bbb.json") else { return }
        let scripts = ["bola", "bolae", "dynamic", "dynamicdash", "throughput"].map { "\(strategies)/sabre/\($0).lua" }
        guard scripts.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
            print("  skipped: \(strategies)/sabre not found")
            return
        }
        let plan = ExperimentPlan(
            strategies: try StrategyResolver(params: ParamAssignments()).resolve(scripts),
            traces: try TraceSetResolver().load([folder.path]).traces, video: try VideoLoader.load(movie.path),
            emulator: SessionEmulator(profile: .sabre), qoe: QoEModel(kind: .sabre), seed: 1
        )
        let seconds = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: ProcessInfo.processInfo.activeProcessorCount) }
        print(String(format: "  %.3f s for %d sessions (Sabre: about 75 s)", seconds, plan.sessionCount))

        // Where the time goes: the same sessions of one script with and without the abandonment
        // checks Sabre makes every ≈ 50 ms of download.
        var alone = plan
        alone.strategies = plan.strategies.filter { $0.source == scripts[0] }
        let withChecks = try BenchmarkClock.bestSeconds { try runPlan(alone, jobs: 1) }
        alone.emulator.profile.mechanics = .segmentBuffer(SegmentBufferSettings(abandonment: false))
        let withoutChecks = try BenchmarkClock.bestSeconds { try runPlan(alone, jobs: 1) }
        print(String(format: "  bola.lua alone, one thread: %.3f s with abandonment checks, %.3f s with --no-abandon", withChecks, withoutChecks))
    }
}
