import ABRLab
import ABRLabResults
import Testing
import TestSupport

/// A strategy's summary of its shared-link groups, as the ranked table reads it.
@Suite(.tags(.core), .selectedByTags) struct GroupSummaryTests {
    @Test func aStrategySummaryAveragesItsGroupsAndSkipsMissingMeasures() {
        let groups = [
            GroupMetrics(jain: 1, unfairness: 0, inefficiency: 0.2, instability: .nan, qoeFairness: 0.9, utilisation: 0.8, overlapSeconds: 0),
            GroupMetrics(jain: 0.5, unfairness: 0.5.squareRoot(), inefficiency: 0.4, instability: 0.1, qoeFairness: 0.7, utilisation: 1, overlapSeconds: 30),
        ]
        let summary = GroupSummary(groups)
        #expect(summary.groups == 2)
        #expect(summary.jain == 0.75)
        #expect(abs(summary.inefficiency - 0.3) < 1e-12)
        #expect(summary.instability == 0.1)
        #expect(summary.utilisation == 0.9)
        #expect(GroupSummary([]).jain.isNaN)
    }

    @Test func aMixLabelCountsForEachOfItsStrategies() {
        let ids: Set<String> = ["bola", "shared/panda", "bba"]
        #expect(GroupSummary.members(of: "bola", strategyIDs: ids) == ["bola"])
        #expect(GroupSummary.members(of: "bola+shared/panda", strategyIDs: ids) == ["bola", "shared/panda"])
    }
}
