import ABRLab
import Testing
import TestSupport

/// The request loop with native strategies: delays, abandonment, replacement, and the errors a
/// strategy's answers can cause.
@Suite(.tags(.core), .selectedByTags) struct RequestEngineTests {
    static func inputs() throws -> (NetworkTrace, Video) {
        let trace = try NetworkTrace(name: "flat", periodEndSeconds: [120], bandwidthBitsPerSecond: [2_000_000], latencySeconds: [0.05])
        let ladder = [300_000, 1_000_000, 4_000_000].enumerated().map { BitrateLevel(bitrate: $1, label: "L\($0)") }
        return (trace, try Video(name: "cbr", segmentDurationSeconds: 2, ladder: ladder, segmentCount: 48))
    }

    /// Top level until it has abandoned once per segment, then the lowest; records what it saw.
    struct Greedy: SessionStrategy {
        var abandoned: Set<Int> = []
        var reports: [DownloadRecord] = []
        var replace = false
        func chooseLevel(_ context: DecisionContext) -> Int { 0 }
        mutating func decide(_ context: DecisionContext) -> RequestDecision {
            if replace { return RequestDecision(level: context.segmentIndex > 15 ? 2 : 0) }
            return RequestDecision(level: context.segmentIndex > 0 && !abandoned.contains(context.segmentIndex) ? 2 : 0)
        }
        mutating func checkAbandonment(_ progress: DownloadProgress) -> Int? {
            guard !replace, progress.level == 2, progress.elapsedSeconds > 0.5 else { return nil }
            abandoned.insert(progress.segmentIndex)
            return 0
        }
        mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) { reports.append(record) }
    }

    @Test func anAbandonedRequestIsWastedAndTheSegmentDecidedAgain() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Greedy()
        let result = try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "greedy", trace: trace, video: video)
        #expect(result.segments.count == 48)
        #expect(result.segments.dropFirst().allSatisfy { $0.requests == 2 && $0.level == 0 && $0.wastedBytes > 0 })
        let abandoned = strategy.reports.filter { $0.abandoned }
        #expect(abandoned.count == 47)
        #expect(abandoned.allSatisfy { $0.abandonedToLevel == 0 && $0.receivedBytes < Double($0.sizeBytes) })
    }

    @Test func withoutAbandonmentTheCheckIsNeverAsked() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Greedy()
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(abandonment: false))
        let result = try SessionEmulator(profile: profile).run(&strategy, strategyID: "greedy", trace: trace, video: video)
        #expect(strategy.abandoned.isEmpty)
        #expect(result.segments.dropFirst().allSatisfy { $0.requests == 1 && $0.level == 2 })
    }

    @Test func replacementOverwritesABufferedSegment() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Greedy(replace: true)
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(replacement: .right))
        let result = try SessionEmulator(profile: profile).run(&strategy, strategyID: "greedy", trace: trace, video: video)
        let replaced = result.segments.filter { $0.replacedLevel != nil }
        #expect(!replaced.isEmpty)
        #expect(replaced.allSatisfy { $0.replacedLevel == 0 && $0.level == 2 })
        #expect(strategy.reports.contains { $0.isReplacement })
    }

    struct Abandoner: SessionStrategy {
        let answer: Int
        func chooseLevel(_ context: DecisionContext) -> Int { context.segmentIndex > 0 ? 1 : 0 }
        func checkAbandonment(_ progress: DownloadProgress) -> Int? { answer }
    }

    @Test(arguments: [1, 2, -1])
    func anAbandonmentToALevelNotBelowIsAnError(answer: Int) throws {
        let (trace, video) = try Self.inputs()
        var strategy = Abandoner(answer: answer)
        #expect(throws: EmulationError.self) {
            try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "x", trace: trace, video: video)
        }
    }

    /// Abandons segment `stubborn` `times` times (every time when nil), each at the first check.
    struct Relentless: SessionStrategy {
        let stubborn: Int
        let times: Int?
        var abandonments = 0
        var location: String? = nil
        func chooseLevel(_ context: DecisionContext) -> Int { context.segmentIndex == stubborn ? 1 : 0 }
        mutating func checkAbandonment(_ progress: DownloadProgress) -> Int? {
            guard progress.segmentIndex == stubborn, abandonments < times ?? .max else { return nil }
            abandonments += 1
            return 0
        }
        func abandonmentCheckLocation() -> String? { location }
    }

    /// A check that abandons one segment forever ends the session at the limit, naming where the
    /// check is (or the strategy), the segment and the trace; it never runs into time or memory.
    @Test(arguments: [nil, "rule.lua:12"])
    func abandoningASegmentForeverEndsAtTheLimit(location: String?) throws {
        let (trace, video) = try Self.inputs()
        var strategy = Relentless(stubborn: 130, times: nil, location: location)
        let long = try Video(name: "long", segmentDurationSeconds: 2, ladder: video.ladder, segmentCount: 200)
        #expect(throws: EmulationError.abandonmentLimit(check: location ?? "relentless", segment: 130, trace: "flat")) {
            try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "relentless", trace: trace, video: long)
        }
        #expect(strategy.abandonments == SessionEmulator.maxAbandonmentsPerSegment)
        let message = EmulationError.abandonmentLimit(check: location ?? "relentless", segment: 130, trace: "flat").description
        #expect(message == "\(location ?? "relentless"): abandoned segment 131 1000 times (the limit per segment) on flat")
    }

    /// One abandonment short of the limit the segment still plays.
    @Test func abandoningJustUnderTheLimitFinishes() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Relentless(stubborn: 5, times: SessionEmulator.maxAbandonmentsPerSegment - 1)
        let result = try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "relentless", trace: trace, video: video)
        #expect(result.segments[5].requests == SessionEmulator.maxAbandonmentsPerSegment)
        #expect(result.segments.count == 48)
    }

    /// Top level, abandoned once 1.5 s into a download; its rechecks wait for that time, or
    /// for a projection no download reaches.
    struct Patient: SessionStrategy {
        var recheck: AbandonmentRecheck
        var abandoned: Set<Int> = []
        /// Elapsed time at each check of a top-level download.
        var checks: [Double] = []
        func chooseLevel(_ context: DecisionContext) -> Int { abandoned.contains(context.segmentIndex) ? 0 : 2 }
        mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
            guard progress.level == 2 else { return .goOn }
            checks.append(progress.elapsedSeconds)
            guard progress.elapsedSeconds > 1.5 else { return AbandonmentAnswer(recheck: recheck) }
            abandoned.insert(progress.segmentIndex)
            return .abandon(to: 0)
        }
    }

    @Test func checksWaitForTheRecheckTheyAskFor() throws {
        let (trace, video) = try Self.inputs()
        var profile = EmulationProfile.sabre
        var everyStep = Patient(recheck: AbandonmentRecheck(elapsedSeconds: 1.5))
        var skipping = everyStep
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(honoursRechecks: false))
        let expected = try SessionEmulator(profile: profile).run(&everyStep, strategyID: "p", trace: trace, video: video)
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(honoursRechecks: true))
        let actual = try SessionEmulator(profile: profile).run(&skipping, strategyID: "p", trace: trace, video: video)
        #expect(actual.segments == expected.segments)
        #expect(actual.segments.dropFirst().allSatisfy { $0.requests == 2 && $0.level == 0 })
        // Every check but the first of each request comes after 1.5 s.
        #expect(skipping.checks.count < everyStep.checks.count / 5)
        #expect(skipping.checks.filter { $0 < 1.5 }.count == 47)
        #expect(everyStep.checks.filter { $0 < 1.5 }.count > 47 * 10)
    }

    @Test func aRecheckNoStepMeetsEndsTheChecks() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Patient(recheck: AbandonmentRecheck(projectedSeconds: 1000))
        let result = try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "p", trace: trace, video: video)
        #expect(strategy.checks.count == 47)
        #expect(result.segments.dropFirst().allSatisfy { $0.requests == 1 && $0.level == 2 })
    }

    @Test func aNaNRecheckIsAnError() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Patient(recheck: AbandonmentRecheck(elapsedSeconds: .nan))
        #expect(throws: EmulationError.self) { try SessionEmulator(profile: .sabre).run(&strategy, strategyID: "p", trace: trace, video: video) }
    }

    struct Waiter: SessionStrategy {
        var delay: Double
        func chooseLevel(_ context: DecisionContext) -> Int { 0 }
        func decide(_ context: DecisionContext) -> RequestDecision { RequestDecision(level: 0, delaySeconds: delay) }
    }

    @Test(arguments: [EmulationProfile.default, .pensieve, .sabre])
    func aDelayLengthensTheSession(profile: EmulationProfile) throws {
        let (trace, video) = try Self.inputs()
        var prompt = Waiter(delay: 0)
        var patient = Waiter(delay: 3)
        let fast = try SessionEmulator(profile: profile).run(&prompt, strategyID: "p", trace: trace, video: video)
        let slow = try SessionEmulator(profile: profile).run(&patient, strategyID: "w", trace: trace, video: video)
        #expect(slow.endSeconds > fast.endSeconds)
        #expect(slow.rebufferSeconds > fast.rebufferSeconds)
    }

    @Test func aNegativeDelayIsAnError() throws {
        let (trace, video) = try Self.inputs()
        var strategy = Waiter(delay: -1)
        #expect(throws: EmulationError.self) { try SessionEmulator(profile: .default).run(&strategy, strategyID: "w", trace: trace, video: video) }
    }

    /// Abandonment, replacement and the link's settings exist only on the segment buffer's
    /// mechanics, the live settings only on live's; every built-in profile is in range.
    @Test func eachMechanicCarriesOnlyItsSettings() throws {
        #expect(EmulationProfile.sabre.segmentBufferSettings == SegmentBufferSettings())
        #expect(EmulationProfile.sabre.liveSettings == nil)
        #expect(EmulationProfile.default.segmentBufferSettings == nil)
        #expect(EmulationProfile.pensieve.segmentBufferSettings == nil)
        #expect(EmulationProfile.live.liveSettings == LiveSettings())
        #expect(EmulationProfile.builtIn.map(\.mechanics.name) == ["wholeTransfers", "wholeTransfers", "segmentBuffer", "live", "live", "segmentBuffer"])
        for profile in EmulationProfile.builtIn { try profile.validate() }
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(SegmentBufferSettings(bandwidthMultiplier: 0))
        #expect(throws: InputError.self) { try profile.validate() }
    }
}
