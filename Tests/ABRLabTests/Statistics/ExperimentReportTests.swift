import ABRLab
import Testing

@Suite struct ExperimentReportTests {
    @Test func groupsSessionsByStrategyInStrategyOrder() throws {
        var report = ExperimentReport(strategyIDs: ["b", "a", "idle"])
        report.add(strategyID: "a", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "b", traceName: "t1", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "a", traceName: "t2", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "b", traceName: "t2", metrics: try MetricsFixtures.alternating(), error: nil)

        let summaries = report.summaries(seed: 1)
        #expect(summaries.map(\.strategyID) == ["b", "a", "idle"])
        #expect(summaries.map(\.sessions) == [2, 2, 0])
        #expect(summaries[0].qoeMean == 5.5)
        #expect(summaries[1].qoeMean == 6)
        #expect(summaries[2].qoeMean.isNaN)
        #expect(report.failureCount == 0)
    }

    @Test func countsFailuresAndKeepsTheFirstMessage() throws {
        var report = ExperimentReport(strategyIDs: ["a", "b"])
        report.add(strategyID: "a", traceName: "t1", metrics: nil, error: "first")
        report.add(strategyID: "a", traceName: "t2", metrics: nil, error: "second")
        report.add(strategyID: "a", traceName: "t3", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "b", traceName: "t1", metrics: nil, error: nil)

        #expect(report.failureCount == 3)
        let summaries = report.summaries(seed: 1)
        #expect(summaries.map(\.failures) == [2, 1])
        #expect(summaries.map(\.sessions) == [1, 0])
        #expect(summaries[0].firstError == "first")
        // A failure without a message still says something.
        #expect(summaries[1].firstError == "failed")
    }

    @Test func summariesMatchStrategySummaryOnTheSameSessions() throws {
        let metrics = [try MetricsFixtures.stalling(), try MetricsFixtures.low()]
        var report = ExperimentReport(strategyIDs: ["s"])
        report.add(strategyID: "s", traceName: "t1", metrics: metrics[0], error: nil)
        report.add(strategyID: "s", traceName: "t2", metrics: nil, error: "boom")
        report.add(strategyID: "s", traceName: "t3", metrics: metrics[1], error: nil)
        let expected = StrategySummary(strategyID: "s", metrics: metrics, failures: 1, firstError: "boom", seed: 9)
        #expect(report.summaries(seed: 9) == [expected])
    }

    @Test func comparesEveryOtherStrategyWithTheBaselineByTrace() throws {
        var report = ExperimentReport(strategyIDs: ["base", "x", "y"])
        // QoE: base 4 on t1, 8 on t2; x 8 on t1, 3 on t2; y 4 on t1 and fails on t2.
        report.add(strategyID: "base", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "base", traceName: "t2", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "x", traceName: "t1", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "x", traceName: "t2", metrics: try MetricsFixtures.alternating(), error: nil)
        report.add(strategyID: "y", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "y", traceName: "t2", metrics: nil, error: "boom")

        let comparisons = report.comparisons(baselineID: "base", seed: 2)
        #expect(comparisons.map(\.strategyID) == ["x", "y"])
        #expect(comparisons.allSatisfy { $0.baselineID == "base" })
        #expect([comparisons[0].wins, comparisons[0].ties, comparisons[0].losses] == [1, 0, 1])
        #expect(comparisons[0].meanDifference == -0.5)
        // y failed on t2, so only t1 pairs up.
        #expect([comparisons[1].wins, comparisons[1].ties, comparisons[1].losses] == [0, 1, 0])
        #expect(comparisons[1].meanDifference == 0)
        #expect(comparisons[0] == PairedComparison(
            strategyID: "x", baselineID: "base", strategyQoE: ["t1": 8, "t2": 3], baselineQoE: ["t1": 4, "t2": 8], seed: 2
        ))
    }

    @Test func anUnknownBaselineLeavesNothingPaired() throws {
        var report = ExperimentReport(strategyIDs: ["a"])
        report.add(strategyID: "a", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        let comparisons = report.comparisons(baselineID: "missing", seed: 1)
        #expect(comparisons.count == 1)
        #expect(comparisons[0].meanDifference.isNaN)
    }
}
