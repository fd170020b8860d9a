import ABRLab
import ABRLabResults
import Testing
import TestSupport

/// A parameter grid's hundred thousand rows rank, pair with a baseline and write their summary
/// in linear time: ordering the comparisons by a search through the table, and finding each
/// row's comparison by another, took hours at this size.
@Suite(.tags(.core, .scale), .selectedByTags) struct RankingScaleTests {
    @Test(.timeLimit(.minutes(1))) func aHundredThousandRowsRankAndPairWithABaseline() throws {
        let ids = (0..<100_000).map { "bola[gp=\($0)]" }
        let (low, high) = (try MetricsFixtures.low(), try MetricsFixtures.high())
        var report = ExperimentReport(strategyIDs: ids)
        for (index, id) in ids.enumerated() {
            report.add(strategyID: id, traceName: "t", metrics: index.isMultiple(of: 2) ? low : high, error: nil)
        }
        let ranking = report.ranking(seed: 1, baselineID: ids[0])
        #expect(ranking.ranked.count == ids.count)
        // Table order: the rows of QoE 8 by id, then those of QoE 4; the comparisons follow it.
        let (odd, even) = (ids.indices.filter { !$0.isMultiple(of: 2) }.map { ids[$0] }, ids.indices.filter { $0.isMultiple(of: 2) }.map { ids[$0] })
        #expect(ranking.ranked.map(\.strategyID) == odd.sorted() + even.sorted())
        #expect(ranking.comparisons.count == ids.count - 1)
        #expect(ranking.comparisons.map(\.strategyID) == ranking.ranked.map(\.strategyID).filter { $0 != ids[0] })
        let rows = ranking.summaryCSV.split(separator: "\n")
        #expect(rows.count == ids.count + 1)
        #expect(rows.last?.hasPrefix((even.max() ?? "") + ",") == true)
    }
}
