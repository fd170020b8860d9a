import ABRLab
import EngineFixtures
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ExperimentPlanTests {
    static func validationError(_ plan: ExperimentPlan) -> InputError? {
        do {
            try plan.validate()
            return nil
        } catch {
            return error
        }
    }

    static func fiveLevelVideo() throws -> Video {
        try Video(name: "standard", segmentDurationSeconds: 2, ladder: BitrateLevel.standardLevels, segmentCount: 10)
    }

    @Test func aSoundPlanValidatesAndCountsItsSessions() throws {
        let plan = try RunnerFixtures.plan(traceCount: 4)
        try plan.validate()
        #expect(plan.sessionCount == 12)
    }

    @Test func noStrategies() throws {
        let plan = try RunnerFixtures.plan(strategies: [])
        #expect(Self.validationError(plan) == InputError(setting: .strategies, "no strategies to run"))
    }

    @Test func noStrategiesIsReportedBeforeNoTraces() throws {
        let plan = try RunnerFixtures.plan(strategies: [], traceCount: 0)
        #expect(Self.validationError(plan)?.message == "no strategies to run")
    }

    @Test func emptyTraceSet() throws {
        let plan = try RunnerFixtures.plan(traceCount: 0)
        #expect(Self.validationError(plan) == InputError(setting: .traces, "the trace set is empty"))
    }

    @Test func duplicateStrategyIDs() throws {
        let plan = try RunnerFixtures.plan(strategies: [
            RunnerFixtures.descriptor("a", levels: [0]), RunnerFixtures.descriptor("b", levels: [0]),
            RunnerFixtures.descriptor("b", levels: [1]),
        ])
        #expect(Self.validationError(plan) == InputError(setting: .strategies, "strategy id 'b' is given twice"))
    }

    /// A parameter grid can make a hundred thousand rows: ids are checked in linear time (a
    /// pairwise scan took minutes), and a repeat found among them is still named.
    @Test(.tags(.scale), .timeLimit(.minutes(1))) func aHundredThousandRowsValidateAndARepeatAmongThemIsNamed() throws {
        let rows = (0..<200_000).map { RunnerFixtures.descriptor("bola[gp=\($0)]", levels: [0]) }
        try RunnerFixtures.plan(strategies: rows).validate()
        let repeated = rows + [RunnerFixtures.descriptor("bola[gp=7]", levels: [0])]
        #expect(Self.validationError(try RunnerFixtures.plan(strategies: repeated)) == InputError(setting: .strategies, "strategy id 'bola[gp=7]' is given twice"))
    }

    @Test func duplicateTraceNames() throws {
        var plan = try RunnerFixtures.plan(traceCount: 3)
        plan.traces.append(try EmulatorFixtures.constantTrace(mbps: 9, name: "trace-1"))
        #expect(Self.validationError(plan) == InputError(
            setting: .traces, "two traces are named 'trace-1'; trace names must be unique within a run"
        ))
    }

    @Test func videoTooShortForTheEmulator() throws {
        var plan = try RunnerFixtures.plan(segments: 4)
        plan.emulator.segmentsToPlay = 10
        #expect(Self.validationError(plan) == InputError(setting: .segments, "cbr: the video has 4 segments but the session plays 10; play 4 with \(Setting.segments) 4"))
    }

    @Test func videoTooShortForTheProfile() throws {
        var plan = try RunnerFixtures.plan(segments: 4)
        plan.emulator = SessionEmulator(profile: .pensieve)
        #expect(Self.validationError(plan) == InputError(setting: .segments, "cbr: the video has 4 segments but the session plays 48; play 4 with \(Setting.segments) 4"))
    }

    @Test func hdQoEOnAFiveLevelLadder() throws {
        var plan = try RunnerFixtures.plan()
        plan.video = try Self.fiveLevelVideo()
        plan.qoe = .hd
        #expect(Self.validationError(plan) == InputError(settings: [.qoe, .video], "the hd QoE model has 6 utilities but the ladder has 5 levels"))
        // The other models score any ladder, and HD does with one utility per level.
        plan.qoe = .log
        try plan.validate()
        plan.qoe = QoEModel(kind: .hd, hdUtilities: [1, 2, 4, 8, 16])
        try plan.validate()
    }

    @Test func sessionsFollowTheGivenTraceOrder() throws {
        var plan = try RunnerFixtures.plan(traceCount: 3)
        plan.traces.reverse()
        try plan.validate()
        #expect(plan.runSession(index: 0).traceName == "trace-2")
    }
}
