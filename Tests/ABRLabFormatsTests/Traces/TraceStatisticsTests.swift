import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceStatisticsTests {
    /// 2 s at 1000 kbps, 1 s outage, 5 s at 3000 kbps, 2 s at 500 kbps.
    static func mixed(latencies: [Double]? = nil) throws -> NetworkTrace {
        try NetworkTrace(
            name: "mixed", periodEndSeconds: [2, 3, 8, 10],
            bandwidthBitsPerSecond: [1_000_000, 0, 3_000_000, 500_000], latencySeconds: latencies
        )
    }

    @Test func durationMeanAndOutageOfOneTrace() throws {
        let statistics = TraceStatistics(try Self.mixed())
        #expect(statistics.durationSeconds == 10)
        #expect(statistics.periods == 4)
        // (2·1000 + 1·0 + 5·3000 + 2·500) / 10
        #expect(statistics.meanKbps == 1800)
        #expect(statistics.outageSeconds == 1)
        #expect(statistics.meanLatencySeconds == nil)
    }

    @Test func percentilesAreTimeWeighted() throws {
        // Sorted by bandwidth the cumulative time is 0:1 s, 500:3 s, 1000:5 s, 3000:10 s, so
        // the 10th percentile (1 s) is the outage, the median (5 s) 1000 and the 90th (9 s) 3000.
        let statistics = TraceStatistics(try Self.mixed())
        #expect(statistics.p10Kbps == 0)
        #expect(statistics.medianKbps == 1000)
        #expect(statistics.p90Kbps == 3000)
    }

    @Test func aLongPeriodOutweighsShortOnes() throws {
        // Two short fast periods and one long slow one: by count the median would be fast.
        let trace = try NetworkTrace(
            name: "t", periods: [
                TracePeriod(durationSeconds: 1, bandwidthBitsPerSecond: 9_000_000),
                TracePeriod(durationSeconds: 10, bandwidthBitsPerSecond: 200_000),
                TracePeriod(durationSeconds: 1, bandwidthBitsPerSecond: 8_000_000),
            ]
        )
        let statistics = TraceStatistics(trace)
        // Cumulative time by bandwidth: 200:10 s, 8000:11 s, 9000:12 s; the p90 falls at 10.8 s.
        #expect(statistics.p10Kbps == 200)
        #expect(statistics.medianKbps == 200)
        #expect(statistics.p90Kbps == 8000)
        #expect(abs(statistics.meanKbps - 19000.0 / 12) < 1e-9)
    }

    @Test func aConstantTraceHasEveryPercentileAtItsBandwidth() throws {
        let statistics = TraceStatistics(try NetworkTrace(name: "c", periods: [TracePeriod(durationSeconds: 7, bandwidthBitsPerSecond: 2_500_000)]))
        #expect(statistics.durationSeconds == 7)
        #expect([statistics.p10Kbps, statistics.medianKbps, statistics.p90Kbps, statistics.meanKbps] == [2500, 2500, 2500, 2500])
        #expect(statistics.outageSeconds == 0)
    }

    @Test func latencyIsTimeWeighted() throws {
        let statistics = TraceStatistics(try Self.mixed(latencies: [0.1, 0.2, 0.05, 0.1]))
        // (2·0.1 + 1·0.2 + 5·0.05 + 2·0.1) / 10 = 0.085
        let latency = try #require(statistics.meanLatencySeconds)
        #expect(abs(latency - 0.085) < 1e-12)
    }

    @Test func setsArePooledAndLatencyAveragesOnlyTracesThatRecordIt() throws {
        let withLatency = try NetworkTrace(
            name: "b", periods: [TracePeriod(durationSeconds: 5, bandwidthBitsPerSecond: 4_000_000, latencySeconds: 0.05)]
        )
        let statistics = TraceStatistics(traces: [try Self.mixed(), withLatency])
        #expect(statistics.durationSeconds == 15)
        #expect(statistics.periods == 5)
        // (18000 + 5·4000) / 15
        #expect(abs(statistics.meanKbps - 38000.0 / 15) < 1e-9)
        #expect(statistics.outageSeconds == 1)
        #expect(statistics.meanLatencySeconds == 0.05)
        // Cumulative: 0:1, 500:3, 1000:5, 3000:10, 4000:15; median at 7.5 s, p90 at 13.5 s.
        #expect(statistics.medianKbps == 3000)
        #expect(statistics.p90Kbps == 4000)
    }

    @Test func anEmptySetIsAllZero() {
        let statistics = TraceStatistics(traces: [])
        #expect(statistics.durationSeconds == 0)
        #expect(statistics.periods == 0)
        #expect(statistics.meanKbps == 0)
        #expect([statistics.p10Kbps, statistics.medianKbps, statistics.p90Kbps] == [0, 0, 0])
        #expect(statistics.outageSeconds == 0)
        #expect(statistics.meanLatencySeconds == nil)
    }

    @Test func anAllOutageTraceHasZeroMeanAndOutageEqualToItsLength() throws {
        let statistics = TraceStatistics(try NetworkTrace(name: "dead", periodEndSeconds: [1.5, 4], bandwidthBitsPerSecond: [0, 0]))
        #expect(statistics.meanKbps == 0)
        #expect(statistics.outageSeconds == 4)
        #expect(statistics.medianKbps == 0)
    }
}
