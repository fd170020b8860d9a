import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct PairedComparisonTests {
    @Test func countsWinsTiesAndLossesOnSharedTracesOnly() {
        // d is missing from the baseline and e from the strategy, so only a, b and c pair up:
        // differences +2, 0, −1.
        let comparison = PairedComparison(
            strategyID: "new", baselineID: "old",
            strategyQoE: ["a": 10, "b": 5, "c": 7, "d": 3],
            baselineQoE: ["a": 8, "b": 5, "c": 8, "e": 100],
            seed: 1
        )
        #expect(comparison.strategyID == "new")
        #expect(comparison.baselineID == "old")
        #expect(comparison.pairs == 3)
        #expect(comparison.wins == 1)
        #expect(comparison.ties == 1)
        #expect(comparison.losses == 1)
        #expect(nearlyEqual(comparison.meanDifference, 1.0 / 3))
        #expect(comparison.interval.lower >= -1 && comparison.interval.upper <= 2)
    }

    @Test func differencesWithinTheToleranceAreTies() {
        let strategy = ["a": 1.5, "b": 1.6, "c": 0.4, "d": 1.0 + 1e-12]
        let baseline = ["a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0]
        // Default tolerance 1e-9: only the rounding-sized difference on d is a tie.
        let strict = PairedComparison(strategyID: "s", baselineID: "b", strategyQoE: strategy, baselineQoE: baseline, seed: 1)
        #expect([strict.wins, strict.ties, strict.losses] == [2, 1, 1])
        // Tolerance 0.5: a's +0.5 sits on the boundary and ties; b's +0.6 and c's −0.6 do not.
        let loose = PairedComparison(
            strategyID: "s", baselineID: "b", strategyQoE: strategy, baselineQoE: baseline, seed: 1, tolerance: 0.5
        )
        #expect([loose.wins, loose.ties, loose.losses] == [1, 2, 1])
        // The tolerance changes only the counts, not the mean.
        #expect(loose.meanDifference == strict.meanDifference)
    }

    @Test func noSharedTracesGiveNaN() {
        let comparison = PairedComparison(
            strategyID: "s", baselineID: "b", strategyQoE: ["x": 1], baselineQoE: ["y": 2], seed: 1
        )
        #expect([comparison.wins, comparison.ties, comparison.losses] == [0, 0, 0])
        #expect(comparison.meanDifference.isNaN)
        #expect(comparison.interval.lower.isNaN && comparison.interval.upper.isNaN)
    }

    @Test func oneSharedTraceGivesADegenerateInterval() {
        let comparison = PairedComparison(
            strategyID: "s", baselineID: "b", strategyQoE: ["x": 4, "y": 1], baselineQoE: ["x": 1.5], seed: 1
        )
        #expect(comparison.wins == 1)
        #expect(comparison.meanDifference == 2.5)
        #expect(intervalBounds(comparison.interval) == [2.5, 2.5])
    }

    @Test func theIntervalIsSeededAndIndependentOfDictionaryOrder() {
        let strategy = ["t1": 3.0, "t2": -1, "t3": 4, "t4": 0.5, "t5": 2]
        let baseline = ["t1": 1.0, "t2": 0, "t3": 1, "t4": 0.5, "t5": 3]
        let comparison = PairedComparison(strategyID: "s", baselineID: "b", strategyQoE: strategy, baselineQoE: baseline, seed: 6)
        // Differences in trace-name order, resampled with the run's seed for paired intervals.
        let expected = Bootstrap.meanInterval([2, -1, 3, 0, -1], seed: Bootstrap.seed(run: 6, purpose: "paired"))
        #expect(comparison.interval == expected)
        #expect(comparison.pairs == 5)
        // The same differences under other names give the same interval.
        let renamed = PairedComparison(strategyID: "t", baselineID: "c", strategyQoE: strategy, baselineQoE: baseline, seed: 6)
        #expect(renamed.interval == comparison.interval)
        #expect(comparison.meanDifference == 0.6)
        var reordered = [String: Double]()
        for key in strategy.keys.sorted().reversed() { reordered[key] = strategy[key] }
        #expect(PairedComparison(strategyID: "s", baselineID: "b", strategyQoE: reordered, baselineQoE: baseline, seed: 6) == comparison)
    }
}
