import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SessionEmulatorTests {
    @Test func steadySessionHasNoStallsAndAnExactTimeline() throws {
        // 1 Mbps segments of 1 s over 2 Mbps: each takes 0.5 s, so the buffer grows by 0.5 s each.
        let emulator = SessionEmulator(profile: EmulatorFixtures.idealProfile())
        var strategy = ScriptedStrategy(levels: [0])
        let result = try emulator.run(
            &strategy, strategyID: "fixed", trace: try EmulatorFixtures.constantTrace(mbps: 2),
            video: try EmulatorFixtures.video()
        )
        #expect(result.segments.map(\.downloadTimeSeconds) == [0.5, 0.5, 0.5, 0.5])
        #expect(result.segments.map(\.bufferAfterSeconds) == [1, 1.5, 2, 2.5])
        #expect(result.segments.map(\.downloadStartSeconds) == [0, 0.5, 1, 1.5])
        #expect(result.segments.map(\.throughputKbps) == [2000, 2000, 2000, 2000])
        #expect(result.startupSeconds == 0.5)
        #expect(result.stallCount == 0)
        #expect(result.rebufferSeconds == 0)
        #expect(result.endSeconds == 4.5)
        let url = try #require(URL(string: "abrlab://session/cbr"))
        #expect(result.transitions.map(\.action) == [.load(url), .didBecomeReady, .play, .didReachEnd])
        #expect(result.transitions.map(SessionResult.sessionSeconds(of:)) == [0, 0.5, 0.5, 4.5])
    }

    @Test func stallIsMeasuredAndLogged() throws {
        // Level 1 (2 Mbps) over 1 Mbps: every 1 s segment takes 2 s, so each drains 1 s and stalls 1 s.
        let emulator = SessionEmulator(profile: EmulatorFixtures.idealProfile())
        var strategy = ScriptedStrategy(levels: [1])
        let result = try emulator.run(
            &strategy, strategyID: "greedy", trace: try EmulatorFixtures.constantTrace(mbps: 1),
            video: try EmulatorFixtures.video(segments: 3)
        )
        #expect(result.segments.map(\.rebufferSeconds) == [0, 1, 1])
        #expect(result.stallCount == 2)
        #expect(result.startupSeconds == 2)
        let stalls = result.transitions.filter { $0.action == .didStartBuffering || $0.action == .didFinishBuffering }
        #expect(stalls.map(SessionResult.sessionSeconds(of:)) == [3, 4, 5, 6])
        #expect(stalls.map(\.to) == [.buffering(previousState: .playing), .playing, .buffering(previousState: .playing), .playing])
    }

    @Test func startupCountsAsRebufferingWhenTheProfileSaysSo() throws {
        let profile = EmulatorFixtures.idealProfile(startupCountsAsRebuffer: true)
        var strategy = ScriptedStrategy(levels: [1])
        let result = try SessionEmulator(profile: profile).run(
            &strategy, strategyID: "greedy", trace: try EmulatorFixtures.constantTrace(mbps: 1),
            video: try EmulatorFixtures.video(segments: 3)
        )
        #expect(result.segments.map(\.rebufferSeconds) == [2, 1, 1])
        #expect(result.stallCount == 2)
    }

    @Test func fullBufferWaitsInSteps() throws {
        // 10 s segments arriving in 1 s: the buffer passes the 15 s cap and the player sleeps.
        let video = try EmulatorFixtures.video(segments: 4, segmentSeconds: 10)
        var strategy = ScriptedStrategy(levels: [0])
        let stepped = try SessionEmulator(profile: EmulatorFixtures.idealProfile(maxBufferSeconds: 15, waitStep: 4)).run(
            &strategy, strategyID: "fixed", trace: try EmulatorFixtures.constantTrace(mbps: 10), video: video
        )
        // Buffers: 10; 19 → wait ceil(4/4)*4 = 4 → 15; 24 → wait 12 → 12; 21 → wait 8 → 13
        #expect(stepped.segments.map(\.waitSeconds) == [0, 4, 12, 8])
        #expect(stepped.segments.map(\.bufferAfterSeconds) == [10, 15, 12, 13])
        #expect(stepped.segments[2].downloadStartSeconds == 1 + 1 + 4)

        var again = ScriptedStrategy(levels: [0])
        let exact = try SessionEmulator(profile: EmulatorFixtures.idealProfile(maxBufferSeconds: 15)).run(
            &again, strategyID: "fixed", trace: try EmulatorFixtures.constantTrace(mbps: 10), video: video
        )
        #expect(exact.segments.map(\.bufferAfterSeconds) == [10, 15, 15, 15])
        #expect(exact.segments.map(\.waitSeconds) == [0, 4, 9, 9])
    }

    @Test func latencyFromTheTraceConsumesTraceTime() throws {
        let trace = try NetworkTrace(
            name: "lat", periods: [TracePeriod(durationSeconds: 10, bandwidthBitsPerSecond: 2_000_000, latencySeconds: 0.25)]
        )
        var strategy = ScriptedStrategy(levels: [0])
        let result = try SessionEmulator(profile: .default).run(
            &strategy, strategyID: "fixed", trace: trace, video: try EmulatorFixtures.video(segments: 2)
        )
        #expect(result.segments.map(\.latencySeconds) == [0.25, 0.25])
        #expect(result.segments.map(\.downloadTimeSeconds) == [0.75, 0.75])
        #expect(result.segments[1].downloadStartSeconds == 0.75)
    }

    @Test func zeroBandwidthTraceEndsWithAClearError() throws {
        var strategy = ScriptedStrategy(levels: [0])
        #expect(throws: EmulationError.traceDeliversNoData(trace: "flat")) {
            try SessionEmulator(profile: .pensieve, segmentsToPlay: 2).run(
                &strategy, strategyID: "fixed", trace: try EmulatorFixtures.constantTrace(mbps: 0),
                video: try EmulatorFixtures.video()
            )
        }
    }

    @Test func nearlyDeadTraceHitsTheTimeLimit() throws {
        var profile = EmulatorFixtures.idealProfile()
        profile.maxSessionSeconds = 100
        let trace = try NetworkTrace(name: "dead", periodEndSeconds: [1, 1000], bandwidthBitsPerSecond: [8, 0])
        var strategy = ScriptedStrategy(levels: [0])
        #expect(throws: EmulationError.sessionTimeLimit(trace: "dead", limitSeconds: 100)) {
            try SessionEmulator(profile: profile).run(&strategy, strategyID: "fixed", trace: trace, video: try EmulatorFixtures.video())
        }
    }

    @Test func outOfRangeLevelAndShortVideoAreErrors() throws {
        var bad = ScriptedStrategy(levels: [2])
        #expect(throws: EmulationError.levelOutOfRange(session: "bad on flat", segment: 0, level: 2, levelCount: 2)) {
            try SessionEmulator(profile: EmulatorFixtures.idealProfile()).run(
                &bad, strategyID: "bad", trace: try EmulatorFixtures.constantTrace(mbps: 1), video: try EmulatorFixtures.video()
            )
        }
        var fine = ScriptedStrategy(levels: [0])
        #expect(throws: EmulationError.videoTooShort(video: "cbr", segments: 4, needed: 48)) {
            try SessionEmulator(profile: .pensieve).run(
                &fine, strategyID: "fine", trace: try EmulatorFixtures.constantTrace(mbps: 1), video: try EmulatorFixtures.video()
            )
        }
    }

    @Test func conservativePlaysASessionDeterministically() throws {
        let video = try Video(name: "std", segmentDurationSeconds: 4, ladder: BitrateLevel.standardLevels, segmentCount: 30)
        let trace = try NetworkTrace(name: "wave", periods: (0..<20).map {
            TracePeriod(durationSeconds: 3, bandwidthBitsPerSecond: $0 % 4 == 0 ? 400_000 : 9_000_000)
        })
        let emulator = SessionEmulator()
        let first = try emulator.run(strategy: try StrategyDescriptor.conservative.makeStrategy(), strategyID: "conservative", trace: trace, video: video)
        let second = try emulator.run(strategy: try StrategyDescriptor.conservative.makeStrategy(), strategyID: "conservative", trace: trace, video: video)
        #expect(first.segments == second.segments)
        #expect(first.segments.allSatisfy { (0..<5).contains($0.level) })
        // No estimate before the first download: the seed starts an offline network at the lowest level.
        #expect(first.segments[0].level == 0)
        #expect(Set(first.segments.map(\.level)).count > 1)
    }
}
