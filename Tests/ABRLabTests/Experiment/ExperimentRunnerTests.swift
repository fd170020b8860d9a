import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

/// A lock-guarded value shared between the runner's worker threads and the test.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite(.tags(.core), .selectedByTags) struct ExperimentRunnerTests {
    /// What the tests compare of each outcome.
    struct Row: Equatable, Sendable {
        var index: Int
        var strategyID: String
        var traceName: String
        var seed: UInt64
        var qoe: Double?
        var error: String?

        init(_ outcome: SessionOutcome) {
            index = outcome.index
            strategyID = outcome.strategyID
            traceName = outcome.traceName
            seed = outcome.seed
            qoe = outcome.metrics?.qoeTotal
            error = outcome.error
        }
    }

    static func rows(_ plan: ExperimentPlan, jobs: Int, window: Int?) throws -> [Row] {
        var rows: [Row] = []
        try ExperimentRunner(jobs: jobs, window: window).run(plan, prepare: { Row($0) }, consume: { rows.append($0) })
        return rows
    }

    @Test func sessionsRunTracesMajorStrategiesMinor() throws {
        let plan = try RunnerFixtures.plan(traceCount: 2)
        let rows = try Self.rows(plan, jobs: 1, window: nil)
        #expect(rows.map(\.index) == Array(0..<6))
        #expect(rows.map(\.strategyID) == ["low", "high", "zigzag", "low", "high", "zigzag"])
        #expect(rows.map(\.traceName) == ["trace-0", "trace-0", "trace-0", "trace-1", "trace-1", "trace-1"])
        #expect(rows.allSatisfy { $0.seed == SessionSeed.derive(seed: 7, strategyID: $0.strategyID, traceName: $0.traceName) })
        // On trace-1 (1.5 Mbps) the 1 Mbps level never stalls: four segments of utility 1.
        #expect(rows[3].qoe == 4)
        #expect(rows.allSatisfy { $0.error == nil })
    }

    @Test(arguments: [1, 2, 4], [1, 3, nil] as [Int?])
    func outputIsTheSameForAnyJobsAndWindow(jobs: Int, window: Int?) throws {
        let plan = try RunnerFixtures.plan(traceCount: 5)
        let expected = (0..<plan.sessionCount).map { Row(plan.runSession(index: $0)) }
        #expect(try Self.rows(plan, jobs: jobs, window: window) == expected)
    }

    @Test(arguments: [(jobs: 4, window: 1), (jobs: 4, window: 3), (jobs: 2, window: 2)])
    func noMoreThanTheWindowRunsAheadOfTheConsumer(jobs: Int, window: Int) throws {
        let plan = try RunnerFixtures.plan(traceCount: 6)
        let highestPrepared = LockedBox(-1)
        var consumed: [Int] = []
        try ExperimentRunner(jobs: jobs, window: window).run(plan, prepare: { outcome in
            highestPrepared.update { $0 = max($0, outcome.index) }
            return outcome.index
        }, consume: { index in
            // While output `index` is consumed, sessions up to `index + window` may have run.
            let highest = highestPrepared.update { $0 }
            #expect(highest <= index + window)
            consumed.append(index)
        })
        #expect(consumed == Array(0..<plan.sessionCount))
    }

    @Test(arguments: [1, 4])
    func aFailingStrategyFailsOnlyItsOwnSessions(jobs: Int) throws {
        let strategies = [
            RunnerFixtures.descriptor("low", levels: [0]),
            StrategyDescriptor(id: "thrower", name: "Thrower", description: "fails") { ThrowingStrategy() },
            StrategyDescriptor(id: "unmakeable", name: "Unmakeable", description: "cannot be made") {
                throw RunnerFailure(description: "no such script")
            },
        ]
        let plan = try RunnerFixtures.plan(strategies: strategies, traceCount: 3)
        let rows = try Self.rows(plan, jobs: jobs, window: 2)
        #expect(rows.count == 9)
        for row in rows {
            switch row.strategyID {
            case "low":
                #expect(row.error == nil)
                #expect(row.qoe != nil)
            case "thrower":
                #expect(row.error == "strategy gave up (segment 1 of \(row.traceName))")
                #expect(row.qoe == nil)
            default:
                #expect(row.error == "no such script")
                #expect(row.qoe == nil)
            }
        }
    }

    @Test func aFailedOutcomeKeepsItsNamesAndSeed() throws {
        let strategies = [StrategyDescriptor(id: "thrower", name: "Thrower", description: "fails") { ThrowingStrategy() }]
        let plan = try RunnerFixtures.plan(strategies: strategies, traceCount: 1)
        let outcome = plan.runSession(index: 0)
        #expect(outcome.strategyID == "thrower")
        #expect(outcome.traceName == "trace-0")
        #expect(outcome.seed == SessionSeed.derive(seed: 7, strategyID: "thrower", traceName: "trace-0"))
        #expect(outcome.result == nil)
        #expect(outcome.metrics == nil)
        #expect(outcome.segmentScores.isEmpty)
    }

    @Test(arguments: [(jobs: 1, window: 1), (jobs: 2, window: 1), (jobs: 4, window: 3), (jobs: 4, window: 100)])
    func anErrorFromConsumeStopsTheRunAndIsRethrown(jobs: Int, window: Int) throws {
        let plan = try RunnerFixtures.plan(traceCount: 10)
        let prepared = LockedBox(0)
        var consumed: [Int] = []
        #expect(throws: RunnerFailure.self) {
            try ExperimentRunner(jobs: jobs, window: window).run(plan, prepare: { outcome in
                prepared.update { $0 += 1 }
                return outcome.index
            }, consume: { index in
                consumed.append(index)
                if index == 4 { throw RunnerFailure(description: "disk full") }
            })
        }
        #expect(consumed == [0, 1, 2, 3, 4])
        // Returning at all shows the workers were released; none claimed past the window.
        let count = prepared.update { $0 }
        #expect(count >= 5)
        #expect(count <= min(plan.sessionCount, 5 + window))
    }

    @Test func anEmptyPlanConsumesNothing() throws {
        let plan = try RunnerFixtures.plan(strategies: [], traceCount: 2)
        #expect(plan.sessionCount == 0)
        var consumed = 0
        try ExperimentRunner(jobs: 4, window: 1).run(plan, prepare: { $0.index }, consume: { _ in consumed += 1 })
        #expect(consumed == 0)
    }

    @Test func jobsAndWindowAreAtLeastOne() {
        let runner = ExperimentRunner(jobs: 0, window: 0)
        #expect(runner.jobs == 1)
        #expect(runner.window == 1)
        #expect(ExperimentRunner(jobs: 3).window == 48)
        #expect(ExperimentRunner(jobs: -2).window == 16)
    }
}
