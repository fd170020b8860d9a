import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ExperimentReportTests {
    @Test func groupsSessionsByStrategyInStrategyOrder() throws {
        var report = ExperimentReport(strategyIDs: ["b", "a"])
        report.add(strategyID: "a", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "b", traceName: "t1", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "a", traceName: "t2", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "b", traceName: "t2", metrics: try MetricsFixtures.alternating(), error: nil)

        let summaries = report.summaries(seed: 1)
        #expect(summaries.map(\.strategyID) == ["b", "a"])
        #expect(summaries.map(\.sessions) == [2, 2])
        #expect(summaries[0].qoeTotalMean == 5.5)
        #expect(summaries[1].qoeTotalMean == 6)
        #expect(report.comparedTraces == ["t1", "t2"])
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

    @Test func completeStrategiesAreSummarisedOnEveryTraceAndIncompleteOnesOnTheirOwn() throws {
        var report = ExperimentReport(strategyIDs: ["good", "crashy"])
        // crashy fails on t2 and t3: good keeps all four traces, crashy is summarised on t1 and t4.
        for (trace, good, crashy) in [
            ("t1", try MetricsFixtures.low(), try MetricsFixtures.high()),
            ("t2", try MetricsFixtures.high(), nil),
            ("t3", try MetricsFixtures.high(), nil),
            ("t4", try MetricsFixtures.alternating(), try MetricsFixtures.high()),
        ] as [(String, SessionMetrics, SessionMetrics?)] {
            report.add(strategyID: "good", traceName: trace, metrics: good, error: nil)
            report.add(strategyID: "crashy", traceName: trace, metrics: crashy, error: crashy == nil ? "segment 40: boom" : nil)
        }
        #expect(report.comparedTraces == ["t1", "t2", "t3", "t4"])
        #expect(report.completeStrategyIDs == ["good"])
        let summaries = report.summaries(seed: 1)
        #expect(summaries.map(\.sessions) == [4, 2])
        #expect(summaries.map(\.comparedSessions) == [4, 2])
        #expect(summaries[0].qoeTotalMean == 5.75)
        #expect(summaries[1].qoeTotalMean == 8)

        // crashy scores higher on the traces it survived, yet is never ranked above good.
        let ranking = report.ranking(seed: 1, baselineID: "good")
        #expect(ranking.traceCount == 4)
        #expect(ranking.comparedTraceCount == 4)
        #expect(ranking.ranked.map(\.strategyID) == ["good"])
        #expect(ranking.ranked.map(\.rank) == [1])
        #expect(ranking.incomplete.map(\.strategyID) == ["crashy"])
        #expect(ranking.incomplete[0].rank == nil)
        #expect(ranking.incomplete[0].failures == 2)
        #expect(ranking.summaries.map(\.strategyID) == ["good", "crashy"])
        // Paired only where both completed: 2 pairs, not 4.
        let pair = try #require(ranking.comparison(for: "crashy"))
        #expect([pair.pairs, pair.wins, pair.ties, pair.losses] == [2, 2, 0, 0])
    }

    /// The complete strategies' statistics are those of a run without the failing strategy,
    /// whether it fails on some traces or on all of them.
    @Test(arguments: [[true, false, true, false], [false, false, false, false]])
    func anIncompleteStrategyNeverReshapesTheRankedOnes(crashyFinishes: [Bool]) throws {
        let traces = ["t1", "t2", "t3", "t4"]
        let qoe: [String: [SessionMetrics]] = [
            "a": [try MetricsFixtures.low(), try MetricsFixtures.high(), try MetricsFixtures.alternating(), try MetricsFixtures.high()],
            "b": [try MetricsFixtures.stalling(), try MetricsFixtures.low(), try MetricsFixtures.high(), try MetricsFixtures.low()],
        ]
        var alone = ExperimentReport(strategyIDs: ["a", "b"])
        var with = ExperimentReport(strategyIDs: ["a", "crashy", "b"])
        for (index, trace) in traces.enumerated() {
            for id in ["a", "b"] {
                alone.add(strategyID: id, traceName: trace, metrics: qoe[id]?[index], error: nil)
                with.add(strategyID: id, traceName: trace, metrics: qoe[id]?[index], error: nil)
            }
            let finished = crashyFinishes[index] ? try MetricsFixtures.high() : nil
            with.add(strategyID: "crashy", traceName: trace, metrics: finished, error: finished == nil ? "boom" : nil)
        }
        let expected = alone.ranking(seed: 5, baselineID: "b")
        let ranking = with.ranking(seed: 5, baselineID: "b")
        #expect(ranking.ranked == expected.ranked)
        #expect(ranking.comparedTraceCount == 4)
        #expect(ranking.comparison(for: "a") == expected.comparison(for: "a"))
        // The table's gap between two ranked strategies is the paired mean difference.
        let gap = ranking.ranked[0].qoeTotalMean - ranking.ranked[1].qoeTotalMean
        #expect(abs(gap - (ranking.comparison(for: "a")?.meanDifference ?? .nan)) < 1e-12)
        let crashy = try #require(ranking.incomplete.first)
        #expect(crashy.comparedSessions == crashyFinishes.filter { $0 }.count)
        #expect(ranking.comparison(for: "crashy")?.pairs == crashyFinishes.filter { $0 }.count)
    }

    @Test func withNoCompleteStrategyNothingIsRankedOrCompared() throws {
        var report = ExperimentReport(strategyIDs: ["x", "y"])
        report.add(strategyID: "x", traceName: "t1", metrics: nil, error: "a")
        report.add(strategyID: "y", traceName: "t1", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "x", traceName: "t2", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "y", traceName: "t2", metrics: nil, error: "b")
        let ranking = report.ranking(seed: 1)
        #expect(ranking.ranked.isEmpty)
        #expect(ranking.comparedTraceCount == 0)
        #expect(ranking.incomplete.map(\.qoeTotalMean) == [8, 4])
    }

    /// a: 8, 8, 8 (mean 8, median 8); b: −4.9, 8, 8 (mean 3.7, median 8); c: 4, 4, 4.
    @Test(arguments: [
        (RankMetric.mean, ["a", "c", "b"], [1, 2, 3]),
        // a and b share the median 8: a tie, one rank, listed by id; c comes third.
        (RankMetric.median, ["a", "b", "c"], [1, 1, 3]),
    ])
    func ranksByMeanOrMedian(metric: RankMetric, order: [String], ranks: [Int]) throws {
        let qoe: [String: [SessionMetrics]] = [
            "a": [try MetricsFixtures.high(), try MetricsFixtures.high(), try MetricsFixtures.high()],
            "b": [try MetricsFixtures.stalling(), try MetricsFixtures.high(), try MetricsFixtures.high()],
            "c": [try MetricsFixtures.low(), try MetricsFixtures.low(), try MetricsFixtures.low()],
        ]
        var report = ExperimentReport(strategyIDs: ["c", "b", "a"])
        for (index, trace) in ["t1", "t2", "t3"].enumerated() {
            for id in ["a", "b", "c"] { report.add(strategyID: id, traceName: trace, metrics: qoe[id]?[index], error: nil) }
        }
        let ranking = report.ranking(seed: 1, rankBy: metric)
        #expect(ranking.rankBy == metric)
        #expect(ranking.ranked.map(\.strategyID) == order)
        #expect(ranking.ranked.compactMap(\.rank) == ranks)
    }

    @Test func identicalStrategiesTieWithIdenticalIntervals() throws {
        var report = ExperimentReport(strategyIDs: ["zeta", "alpha", "worse"])
        for (trace, metrics) in [("t1", try MetricsFixtures.low()), ("t2", try MetricsFixtures.high()), ("t3", try MetricsFixtures.alternating())] {
            report.add(strategyID: "zeta", traceName: trace, metrics: metrics, error: nil)
            report.add(strategyID: "alpha", traceName: trace, metrics: metrics, error: nil)
            report.add(strategyID: "worse", traceName: trace, metrics: try MetricsFixtures.stalling(), error: nil)
        }
        let ranking = report.ranking(seed: 3)
        #expect(ranking.ranked.map(\.strategyID) == ["alpha", "zeta", "worse"])
        #expect(ranking.ranked.map(\.rank) == [1, 1, 3])
        #expect(ranking.ranked[0].qoeTotalInterval == ranking.ranked[1].qoeTotalInterval)
    }

    @Test func incompleteStrategiesAreListedByFailureCount() throws {
        var report = ExperimentReport(strategyIDs: ["many", "few", "ok"])
        for (index, trace) in ["t1", "t2", "t3", "t4"].enumerated() {
            report.add(strategyID: "ok", traceName: trace, metrics: try MetricsFixtures.low(), error: nil)
            report.add(strategyID: "few", traceName: trace, metrics: index == 0 ? nil : try MetricsFixtures.high(), error: "x")
            report.add(strategyID: "many", traceName: trace, metrics: index < 3 ? nil : try MetricsFixtures.high(), error: "y")
        }
        let ranking = report.ranking(seed: 1)
        #expect(ranking.comparedTraceCount == 4)
        #expect(ranking.ranked.map(\.strategyID) == ["ok"])
        #expect(ranking.incomplete.map(\.strategyID) == ["few", "many"])
        #expect(ranking.incomplete.map(\.failures) == [1, 3])
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
