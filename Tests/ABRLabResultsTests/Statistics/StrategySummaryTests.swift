import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct StrategySummaryTests {
    @Test func fixturesHaveTheirHandWorkedNumbers() throws {
        let low = try MetricsFixtures.low()
        #expect(low.segments == 4)
        #expect(low.qoeTotal == 4)
        #expect(low.averageBitrateKbps == 1000)
        #expect(low.startupSeconds == 0.5)
        #expect(low.rebufferRatio == 0)
        #expect(low.switchCount == 0)

        let high = try MetricsFixtures.high()
        #expect(high.qoeTotal == 8)
        #expect(high.startupSeconds == 1)
        #expect(high.rebufferSeconds == 0)

        let alternating = try MetricsFixtures.alternating()
        #expect(alternating.qoeTotal == 3)
        #expect(alternating.switchCount == 3)
        #expect(alternating.averageBitrateKbps == 1500)

        let stalling = try MetricsFixtures.stalling()
        #expect(stalling.rebufferSeconds == 3)
        #expect(stalling.stallCount == 3)
        #expect(stalling.startupSeconds == 2)
        #expect(nearlyEqual(stalling.qoeTotal, -4.9))
        #expect(nearlyEqual(stalling.rebufferRatio, 3.0 / 7))
    }

    @Test func meansAndMedianOfThreeSessions() throws {
        let summary = StrategySummary(
            strategyID: "s", metrics: [try MetricsFixtures.low(), try MetricsFixtures.high(), try MetricsFixtures.alternating()],
            failures: 0, firstError: nil, seed: 1
        )
        #expect(summary.strategyID == "s")
        #expect(summary.sessions == 3)
        #expect(summary.failures == 0)
        #expect(summary.qoeTotalMean == 5)
        #expect(summary.qoeTotalMedian == 4)
        #expect(summary.averageBitrateKbps == 1500)
        #expect(summary.rebufferRatio == 0)
        #expect(summary.switches == 1)
        #expect(nearlyEqual(summary.startupSeconds, 2.0 / 3))
        #expect(summary.qoeTotalInterval.lower >= 3 && summary.qoeTotalInterval.upper <= 8)
        #expect(summary.qoeTotalInterval.lower < 5 && 5 < summary.qoeTotalInterval.upper)
        #expect(summary.firstError == nil)
    }

    @Test func evenCountMedianInterpolatesAndStallsCount() throws {
        let summary = StrategySummary(
            strategyID: "s",
            metrics: [try MetricsFixtures.stalling(), try MetricsFixtures.high(), try MetricsFixtures.low(), try MetricsFixtures.alternating()],
            failures: 2, firstError: "boom", seed: 1
        )
        #expect(summary.sessions == 4)
        #expect(summary.failures == 2)
        #expect(summary.firstError == "boom")
        // QoE sorted: −4.9, 3, 4, 8.
        #expect(nearlyEqual(summary.qoeTotalMean, 10.1 / 4))
        #expect(summary.qoeTotalMedian == 3.5)
        #expect(summary.averageBitrateKbps == 1625)
        #expect(nearlyEqual(summary.rebufferRatio, 3.0 / 28))
        #expect(summary.switches == 0.75)
        #expect(summary.startupSeconds == 1)
    }

    @Test func theIntervalIsSeededByTheRunAloneSoIdenticalDataGetsAnIdenticalInterval() throws {
        let metrics = [try MetricsFixtures.stalling(), try MetricsFixtures.high(), try MetricsFixtures.low(), try MetricsFixtures.alternating()]
        let first = StrategySummary(strategyID: "bba", metrics: metrics, failures: 0, firstError: nil, seed: 4)
        let renamed = StrategySummary(strategyID: "bba-native", metrics: metrics, failures: 0, firstError: nil, seed: 4)
        #expect(first.qoeTotalInterval == renamed.qoeTotalInterval)
        let expected = Bootstrap.meanInterval(metrics.map(\.qoeTotal), seed: Bootstrap.seed(run: 4, purpose: "summary"))
        #expect(first.qoeTotalInterval == expected)
        let otherRun = StrategySummary(strategyID: "bba", metrics: metrics, failures: 0, firstError: nil, seed: 5)
        #expect(otherRun.qoeTotalInterval != first.qoeTotalInterval)
    }

    @Test func sessionsCountTheWholeRunWhileStatisticsCoverTheSessionsGiven() throws {
        let summary = StrategySummary(
            strategyID: "s", metrics: [try MetricsFixtures.low()], sessions: 3, failures: 1, firstError: "boom", seed: 1
        )
        #expect(summary.sessions == 3)
        #expect(summary.comparedSessions == 1)
        #expect(summary.qoeTotalMean == 4)
        #expect(!summary.isComplete)
        #expect(summary.rank == nil)
    }

    @Test func noFinishedSessionsGiveNaNs() {
        let summary = StrategySummary(strategyID: "dead", metrics: [], failures: 3, firstError: "no data", seed: 1)
        #expect(summary.sessions == 0)
        #expect(summary.failures == 3)
        #expect(summary.qoeTotalMean.isNaN)
        #expect(summary.qoeTotalMedian.isNaN)
        #expect(summary.qoeTotalInterval.lower.isNaN && summary.qoeTotalInterval.upper.isNaN)
        #expect(summary.averageBitrateKbps.isNaN)
        #expect(summary.rebufferRatio.isNaN)
        #expect(summary.switches.isNaN)
        #expect(summary.startupSeconds.isNaN)
    }
}
