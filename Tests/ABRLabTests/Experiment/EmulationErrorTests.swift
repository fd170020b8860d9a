import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

/// A session failure says what failed: the strategy, the trace, the settings or a limit; and
/// settings are refused once, before any session.
@Suite(.tags(.core), .selectedByTags) struct EmulationErrorTests {
    /// The sabre profile with a bandwidth multiplier no link can have.
    static func badProfile() -> EmulationProfile {
        var profile = EmulationProfile.sabre
        guard case .segmentBuffer(var settings) = profile.mechanics else { preconditionFailure("sabre plays a segment buffer") }
        settings.bandwidthMultiplier = -1
        profile.mechanics = .segmentBuffer(settings)
        return profile
    }

    @Test func aThrowingStrategyIsTheStrategys() throws {
        var strategy = ThrowingStrategy()
        let error = try #require(throws: EmulationError.self) {
            try SessionEmulator(profile: EmulatorFixtures.idealProfile()).run(
                &strategy, strategyID: "thrower", trace: try EmulatorFixtures.constantTrace(mbps: 1), video: try EmulatorFixtures.video()
            )
        }
        #expect(error.subject == .strategy)
        #expect(error.description == "strategy gave up (segment 1 of flat)")
    }

    @Test func aLevelOutOfRangeIsTheStrategys() {
        #expect(EmulationError.levelOutOfRange(session: "s on t", segment: 0, level: 9, levelCount: 2).subject == .strategy)
        #expect(EmulationError.abandonmentLimit(check: "s", segment: 0, trace: "t").subject == .strategy)
    }

    @Test func aDeadTraceIsTheTraces() throws {
        var strategy = ScriptedStrategy(levels: [0])
        let error = try #require(throws: EmulationError.self) {
            try SessionEmulator(profile: .pensieve, segmentsToPlay: 2).run(
                &strategy, strategyID: "fixed", trace: try EmulatorFixtures.constantTrace(mbps: 0), video: try EmulatorFixtures.video()
            )
        }
        #expect(error.subject == .trace)
    }

    @Test func limitsAreTheirOwnSubject() {
        #expect(EmulationError.sessionTimeLimit(trace: "t", limitSeconds: 1).subject == .limit)
        #expect(EmulationError.sessionStepLimit(trace: "t", steps: 1).subject == .limit)
    }

    @Test func settingsOutOfRangeAreTheSettingsNotTheStrategys() throws {
        let error = try #require(throws: EmulationError.self) {
            try StreamingSession(profile: Self.badProfile(), trace: try EmulatorFixtures.constantTrace(mbps: 1), video: try EmulatorFixtures.video())
        }
        #expect(error == .settingsRefused(InputError(setting: .bandwidthMultiplier, "must be a positive number")))
        #expect(error.subject == .settings)
        // Named as the caller names settings: by key here, by flag on the command line.
        #expect(error.description == "bandwidth_multiplier: must be a positive number")
        #expect(error.described(naming: { "--\($0.rawValue)" }) == "--bandwidth_multiplier: must be a positive number")
        #expect(EmulationError.videoTooShort(video: "v", segments: 1, needed: 2).subject == .settings)
    }

    @Test func anEmulatorChecksItsProfileWhenItIsSet() {
        var emulator = SessionEmulator(profile: .sabre)
        #expect(emulator.settingsRefusal == nil)
        emulator.profile = Self.badProfile()
        #expect(emulator.settingsRefusal == InputError(setting: .bandwidthMultiplier, "must be a positive number"))
        emulator.profile = .sabre
        #expect(emulator.settingsRefusal == nil)
    }

    @Test(arguments: [1, 3])
    func aPlansInvalidSettingsAreRefusedOnceBeforeAnySession(jobs: Int) throws {
        let made = LockedBox(0)
        let counting = StrategyDescriptor(id: "counted", name: "counted", description: "counts its sessions") {
            made.update { $0 += 1 }
            return ScriptedStrategy(levels: [0])
        }
        var plan = try RunnerFixtures.plan(strategies: [counting], traceCount: 3)
        plan.emulator.profile = Self.badProfile()
        let refusal = InputError(setting: .bandwidthMultiplier, "must be a positive number")
        #expect(throws: refusal) { try plan.validate() }
        var consumed = 0
        #expect(throws: refusal) {
            try ExperimentRunner(jobs: jobs).run(plan, prepare: { $0 }, consume: { _ in consumed += 1 })
        }
        #expect(consumed == 0)
        #expect(made.update { $0 } == 0)
    }
}
