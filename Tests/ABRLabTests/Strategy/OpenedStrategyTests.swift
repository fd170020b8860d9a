import ABRLab
import Testing
import TestSupport

/// A strategy held as `any SessionStrategy` (as runs hold them) plays exactly as the same
/// strategy held by its own type, every hook heard the same number of times.
@Suite(.tags(.core), .selectedByTags) struct OpenedStrategyTests {
    final class Calls: @unchecked Sendable {
        var log: [String] = []
    }

    /// Implements every hook, each leaving a mark: delays, waits, abandonment with rechecks,
    /// playback rates.
    struct Everything: SessionStrategy {
        let calls: Calls
        var abandoned: Set<Int> = []

        mutating func setUp(_ session: SessionInfo) { calls.log.append("setUp") }
        func chooseLevel(_ context: DecisionContext) -> Int {
            abandoned.contains(context.segmentIndex) ? 0 : context.segmentIndex % context.levelCount
        }
        mutating func decide(_ context: DecisionContext) -> RequestDecision {
            calls.log.append("decide \(context.segmentIndex)")
            return RequestDecision(level: chooseLevel(context), delaySeconds: context.segmentIndex % 5 == 0 ? 0.25 : 0)
        }
        mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
            calls.log.append("check \(progress.segmentIndex)")
            if progress.level > 1, progress.elapsedSeconds > 2 {
                abandoned.insert(progress.segmentIndex)
                return .abandon(to: 0)
            }
            return AbandonmentAnswer(recheck: AbandonmentRecheck(elapsedSeconds: progress.elapsedSeconds + 0.2))
        }
        mutating func didWait(seconds: Double, context: DecisionContext) { calls.log.append("wait") }
        mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) { calls.log.append("download \(record.abandoned)") }
        var updatesPlayback: Bool { true }
        mutating func playbackDidUpdate(_ update: PlaybackUpdate) -> Double? {
            calls.log.append("playback")
            return update.latencySeconds > update.targetLatencySeconds ? 1.05 : nil
        }
    }

    @Test(arguments: ["default", "sabre", "live"])
    func anExistentialPlaysAsItsOwnType(profile name: String) throws {
        let profile = try #require([EmulationProfile.default, .sabre, .live].first { $0.name == name })
        let conformance = try StrategyConformance()
        let emulator = SessionEmulator(profile: profile)
        for trace in conformance.traces {
            let typed = Calls()
            var strategy = Everything(calls: typed)
            let a = try emulator.run(&strategy, strategyID: "everything", trace: trace, video: conformance.video)
            let held = Calls()
            let b = try emulator.run(strategy: Everything(calls: held) as any SessionStrategy, strategyID: "everything", trace: trace, video: conformance.video)
            #expect(a.segments == b.segments)
            #expect(a.playback == b.playback)
            #expect(typed.log == held.log)
            #expect(typed.log.contains("setUp") && typed.log.contains { $0.hasPrefix("download") })
            if name == "sabre" { #expect(typed.log.contains { $0.hasPrefix("check") }) }
            if name == "live" { #expect(typed.log.contains("playback")) }
        }
    }
}
