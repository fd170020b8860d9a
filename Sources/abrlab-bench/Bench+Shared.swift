import ABRLab
import ABRLabCompare
import ABRLabFormats
import Foundation

extension Bench {
    /// Groups of 8 players of Sabre's BOLA sharing each of Sabre's 86 3G traces (`sabre` profile,
    /// `movie.json`) beside the same 8 sessions per trace each alone on its link, and each alone on
    /// an eighth of it: one thread, in memory, scored (and the group measured). A player on an
    /// eighth of the link downloads eight times as long, so it makes eight times the abandonment
    /// checks (Sabre's every 50 ms); the eighth-link run does that same work alone, so the
    /// ratio to it is what the scheduler costs.
    func shared() throws {
        print("8 players sharing each of Sabre's 3G traces beside 8 independent sessions (sabre profile, one thread)")
        guard let folder = dataset("sabre/mmsys18/3Glogs"), let movie = dataset("sabre/movie.json") else { return }
        let script = "\(strategies)/sabre/bola.lua"
        guard FileManager.default.fileExists(atPath: script) else {
            print("  skipped: \(script) not found")
            return
        }
        let players = 8
        var plan = ExperimentPlan(
            strategies: try StrategyResolver(params: ParamAssignments()).resolveWithWarnings([script]).descriptors,
            traces: try TraceSetResolver().load([folder.path]).traces, video: try VideoLoader.load(movie.path),
            emulator: SessionEmulator(profile: .sabre), qoe: QoEModel(kind: .sabre), seed: 1
        )
        var failures = 0
        let alone = BenchmarkClock.bestSeconds {
            failures = 0
            for index in 0..<plan.sessionCount {
                for _ in 0..<players where plan.runSession(index: index).error != nil { failures += 1 }
            }
        }
        let aloneFailures = failures
        var eighth = plan
        eighth.emulator.profile.mechanics = .segmentBuffer(SegmentBufferSettings(bandwidthMultiplier: 1 / Double(players)))
        let slow = BenchmarkClock.bestSeconds {
            failures = 0
            for index in 0..<eighth.sessionCount {
                for _ in 0..<players where eighth.runSession(index: index).error != nil { failures += 1 }
            }
        }
        let slowFailures = failures
        plan.grouping = LinkGrouping(players: players)
        var jain = 0.0
        let grouped = BenchmarkClock.bestSeconds {
            failures = 0
            jain = 0
            for index in 0..<plan.groupCount {
                let group = plan.runGroup(index: index)
                failures += group.players.filter { $0.error != nil }.count
                jain += group.metrics.jain
            }
        }
        let sessions = plan.traces.count * players
        print(String(format: "  alone: %.3f s for %d sessions (%d failed); alone on an eighth of the link: %.3f s (%d failed)",
                     alone, sessions, aloneFailures, slow, slowFailures))
        print(String(format: "  shared: %.3f s for %d groups of %d (%d failed; mean Jain %.3f); %.2f× the sessions alone, %.2f× alone on an eighth",
                     grouped, plan.groupCount, players, failures, jain / Double(plan.groupCount), grouped / alone, grouped / slow))
    }
}
