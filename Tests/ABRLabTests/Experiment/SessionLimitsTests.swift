import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

/// Every session ends, whatever the trace or the strategy: at the profile's simulated-time limit
/// or after its number of steps, with an error that says which.
@Suite(.tags(.core), .selectedByTags) struct SessionLimitsTests {
    static let profiles = EmulationProfile.builtIn.map(\.name)

    static func profile(_ name: String) throws -> EmulationProfile {
        try #require(EmulationProfile.named(name))
    }

    static func video() throws -> Video { try EmulatorFixtures.video(segments: 48) }

    /// Plays level 0, after a delay of `delaySeconds` before every segment but the first.
    struct Delaying: SessionStrategy {
        var delaySeconds = 0.0
        func chooseLevel(_ context: DecisionContext) -> Int { 0 }
        func decide(_ context: DecisionContext) -> RequestDecision {
            RequestDecision(level: 0, delaySeconds: context.segmentIndex > 0 ? delaySeconds : 0)
        }
    }

    static func play(_ profile: EmulationProfile, _ trace: NetworkTrace, delaySeconds: Double = 0) throws -> SessionResult {
        var strategy = Delaying(delaySeconds: delaySeconds)
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: "delaying", trace: trace, video: video())
    }

    /// Runs `body` and expects it to end with `error` within a few seconds.
    static func expectQuickly(_ error: EmulationError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        let start = Date()
        #expect(throws: error, sourceLocation: sourceLocation) { try body() }
        #expect(Date().timeIntervalSince(start) < 10, sourceLocation: sourceLocation)
    }

    @Test(arguments: profiles)
    func aTraceOfNearlyNoBandwidthEndsAtTheTimeLimit(profile name: String) throws {
        let profile = try Self.profile(name)
        let trace = try NetworkTrace(name: "slow", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [1e-300, 1e-300])
        Self.expectQuickly(.sessionTimeLimit(trace: "slow", limitSeconds: 86_400)) { _ = try Self.play(profile, trace) }
    }

    /// Pensieve's profile adds its own 80 ms to every request and never reads the trace's latency.
    @Test(arguments: profiles)
    func aLatencyOfAnAgeEndsAtTheTimeLimit(profile name: String) throws {
        let profile = try Self.profile(name)
        let trace = try NetworkTrace(
            name: "late", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [8_000_000, 8_000_000], latencySeconds: [1e300, 1e300]
        )
        if name == "pensieve" {
            #expect(try Self.play(profile, trace).segments.map(\.latencySeconds) == Array(repeating: 0.08, count: 48))
            return
        }
        Self.expectQuickly(.sessionTimeLimit(trace: "late", limitSeconds: 86_400)) { _ = try Self.play(profile, trace) }
    }

    @Test(arguments: profiles)
    func aStrategyDelayingForAnAgeEndsAtTheTimeLimit(profile name: String) throws {
        let profile = try Self.profile(name)
        let trace = try EmulatorFixtures.constantTrace(mbps: 8, name: "flat")
        Self.expectQuickly(.sessionTimeLimit(trace: "flat", limitSeconds: 86_400)) { _ = try Self.play(profile, trace, delaySeconds: 1e300) }
    }

    /// A trace cut into microsecond periods would take 10¹¹ steps to cover a day; the step
    /// limit ends it first (here lowered, so the test is quick).
    @Test(arguments: profiles)
    func aFinelyCutTraceEndsAtTheStepLimit(profile name: String) throws {
        var profile = try Self.profile(name)
        profile.maxSessionSteps = 100_000
        let trace = try NetworkTrace(name: "fine", periodEndSeconds: [1e-6, 2e-6], bandwidthBitsPerSecond: [1, 1])
        Self.expectQuickly(.sessionStepLimit(trace: "fine", steps: 100_000)) { _ = try Self.play(profile, trace) }
    }

    /// The step limit counts work, not wall time: an ordinary session is far inside it.
    @Test(arguments: profiles)
    func anOrdinarySessionIsFarInsideTheLimits(profile name: String) throws {
        var profile = try Self.profile(name)
        profile.maxSessionSteps = 2_000
        let trace = try NetworkTrace(name: "wave", periods: (0..<40).map {
            TracePeriod(durationSeconds: 0.5, bandwidthBitsPerSecond: $0 % 2 == 0 ? 3_000_000 : 1_500_000, latencySeconds: 0.04)
        })
        let result = try Self.play(profile, trace, delaySeconds: 0.25)
        #expect(!result.segments.isEmpty)
    }

    @Test func aLiveSessionOverATraceOfAnAgeIsRefusedBeforeItAllocates() throws {
        let trace = try NetworkTrace(name: "long", periodEndSeconds: [1e300], bandwidthBitsPerSecond: [8_000_000])
        #expect(throws: EmulationError.liveSessionTooLong(segments: 1_000_000_000_000, segmentSeconds: 1, limitSeconds: 86_400)) {
            _ = try Self.play(.live, trace)
        }
        let error = EmulationError.liveSessionTooLong(segments: 200_000, segmentSeconds: 1, limitSeconds: 86_400)
        #expect(error.description.contains("200000 segments of 1 s would run past the session limit of 86400 s"))
    }

    @Test func tooManyLiveSegmentsAreRefusedBeforeAnySessionRuns() throws {
        let video = try Self.video()
        #expect(throws: EmulationError.liveSessionTooLong(segments: 1_000_000_000, segmentSeconds: 1, limitSeconds: 86_400)) {
            try SessionEmulator(profile: .live, segmentsToPlay: 1_000_000_000).validate(video: video)
        }
        #expect(throws: EmulationError.liveSessionTooLong(segments: 86_403, segmentSeconds: 1, limitSeconds: 86_400)) {
            try SessionEmulator(profile: .live, segmentsToPlay: 86_403).validate(video: video)
        }
        try SessionEmulator(profile: .live, segmentsToPlay: 86_401).validate(video: video)
    }

    @Test func limitMessagesSayWhichLimitAndHowBig() {
        #expect(EmulationError.sessionTimeLimit(trace: "t", limitSeconds: 86_400).description.hasPrefix("t: the session ran past its limit of 86400 s of simulated time"))
        #expect(EmulationError.sessionStepLimit(trace: "t", steps: 100_000_000).description.hasPrefix("t: the session took more than its limit of 100000000 steps"))
    }
}
