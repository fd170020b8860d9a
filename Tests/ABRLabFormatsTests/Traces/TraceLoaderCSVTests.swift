import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceLoaderCSVTests {
    @Test func endColumnReadsLikePensieveWithoutItsStartLine() throws {
        let csv = try TraceLoader.parse("end_s,bandwidth_mbps\n0.549999952316,4.79283060109\n0.879999876022,4.49231799163\n", file: "report_foo.csv")
        let pensieve = try TraceLoader.parse("0.0\t4.03768755221\n0.549999952316\t4.79283060109\n0.879999876022\t4.49231799163\n", file: "report_foo")
        #expect(csv.format == .csv)
        #expect(csv.trace == pensieve.trace)
        #expect(csv.trace.name == "report_foo")
    }

    @Test func firstEndRowStartsAtZero() throws {
        let trace = try TraceLoader.parse("end_ms,bandwidth_kbps,latency_ms\n1000,500,20\n2500,800,30\n", file: "t.csv").trace
        #expect(trace.periodEndSeconds == [1, 2.5])
        #expect(trace.bandwidthBitsPerSecond == [500_000, 800_000])
        #expect(trace.latencySeconds == [0.02, 0.03])
    }

    /// A row's `time_*` is when its period starts: the first row is a period like any other and
    /// the last one lasts as long as the one before it.
    @Test func timeColumnGivesStartTimesAndKeepsTheFirstRow() throws {
        let trace = try TraceLoader.parse("time_s,bandwidth_kbps,latency_ms\n0,500,20\n1,800,30\n3,200,40\n", file: "t.csv").trace
        #expect(trace.periodEndSeconds == [1, 3, 5])
        #expect(trace.bandwidthBitsPerSecond == [500_000, 800_000, 200_000])
        #expect(trace.latencySeconds == [0.02, 0.03, 0.04])
    }

    @Test func startTimesAndEndTimesDescribeTheSameTrace() throws {
        let starts = try TraceLoader.parse("time_s,bandwidth_kbps\n0,5\n1,6\n2,7\n", file: "t.csv").trace
        let ends = try TraceLoader.parse("end_s,bandwidth_kbps\n1,5\n2,6\n3,7\n", file: "t.csv").trace
        #expect(starts == ends)
    }

    @Test func startTimesMayBeAbsoluteTimestamps() throws {
        let trace = try TraceLoader.parse("time_ms,bandwidth_kbps\n1700000000000,5\n1700000000500,6\n", file: "t.csv").trace
        #expect(trace.periodEndSeconds == [0.5, 1])
        #expect(trace.bandwidthBitsPerSecond == [5000, 6000])
    }

    @Test func writtenCSVReadsBackExactly() throws {
        let trace = try TraceLoader.parse("time_s,bandwidth_kbps,latency_ms\n0,500,20\n0.3,800,30\n1.7,0,40\n", file: "t.csv").trace
        let again = try TraceLoader.parse(TraceWriter.csvText(trace), file: "t.csv").trace
        #expect(again == trace)
    }

    @Test func durationColumnsMakeOnePeriodPerRow() throws {
        let seconds = try TraceLoader.parse("duration_s,bandwidth_bps,latency_s\n1.5,1000000,0.1\n0.5,0,0.2\n", file: "t.csv").trace
        #expect(seconds.periodEndSeconds == [1.5, 2])
        #expect(seconds.bandwidthBitsPerSecond == [1_000_000, 0])
        #expect(seconds.latencySeconds == [0.1, 0.2])
        let milliseconds = try TraceLoader.parse("duration_ms,bandwidth_kbps\n100,5\n200,6\n", file: "t.csv").trace
        #expect(milliseconds.periodEndSeconds == [0.1, 0.3])
    }

    @Test func columnsMayComeInAnyOrderAndCase() throws {
        let trace = try TraceLoader.parse(" Bandwidth_Kbps , END_S \n\n 700 , 2 \r\n", file: "t.csv").trace
        #expect(trace.periodEndSeconds == [2])
        #expect(trace.bandwidthBitsPerSecond == [700_000])
    }

    @Test(arguments: [
        ("time_s,bandwidth_gbps\n1,2\n", "t.csv:1: column 'bandwidth_gbps' has an unknown unit 'gbps'; use bandwidth_bps, bandwidth_kbps, bandwidth_mbps"),
        ("time_min,bandwidth_kbps\n1,2\n", "t.csv:1: column 'time_min' has an unknown unit 'min'; use time_s, time_ms"),
        ("\ntime_s,bandwidth\n1,2\n", "t.csv:2: column 'bandwidth' needs a unit: bandwidth_bps, bandwidth_kbps, bandwidth_mbps"),
        ("time_s,bandwidth_kbps,latency_us\n1,2,3\n", "t.csv:1: column 'latency_us' has an unknown unit 'us'; use latency_s, latency_ms"),
        ("time_s,duration_s,bandwidth_kbps\n1,1,2\n", "t.csv:1: column 'duration_s' repeats the timing; give one time_*, end_* or duration_* column"),
        ("time_s,bandwidth_kbps,bandwidth_mbps\n1,1,2\n", "t.csv:1: column 'bandwidth_mbps' repeats the bandwidth"),
        ("time_s,,bandwidth_kbps\n1,1,2\n", "t.csv:1: column 2 of the header has no name"),
        ("time_s,bandwidth_kbps\n1,2\n2,3,4\n", "t.csv:3: expected 2 fields, found 3"),
        ("time_s,bandwidth_kbps\n1\n", "t.csv:2: expected 2 fields, found 1"),
        ("time_s,bandwidth_kbps\n1,fast\n", "t.csv:2: bandwidth_kbps 'fast' is not a number"),
        ("time_s,bandwidth_kbps\n1,\n", "t.csv:2: bandwidth_kbps (empty) is not a number"),
        ("time_s,bandwidth_kbps\n1,nan\n", "t.csv:2: bandwidth_kbps is nan; it must be a finite number"),
        ("time_s,bandwidth_kbps\n1,-inf\n", "t.csv:2: bandwidth_kbps is -inf; it must be a finite number"),
        ("time_s,bandwidth_kbps\n1,-1\n", "t.csv:2: bandwidth_kbps is -1; it must be ≥ 0"),
        ("time_ms,bandwidth_kbps\n0,1\n500,1\n200,1\n", "t.csv:4: time_ms 200 does not come after the previous row's 500; times must increase"),
        ("time_s,bandwidth_kbps\n-1,1\n", "t.csv:2: time_s is -1; it must be ≥ 0"),
        ("time_s,bandwidth_kbps\n1,1\n1,1\n", "t.csv:3: time_s 1 does not come after the previous row's 1; times must increase"),
        ("time_s,bandwidth_kbps\n0,1\n0,1\n", "t.csv:3: time_s 0 does not come after the previous row's 0; times must increase"),
        ("duration_ms,bandwidth_kbps\n0,1\n", "t.csv:2: duration_ms is 0; it must be > 0"),
        ("time_s,bandwidth_kbps,latency_ms\n1,1,x\n", "t.csv:2: latency_ms 'x' is not a number"),
        ("time_s,bandwidth_kbps\n", "t.csv: the trace has no rows"),
        ("time_s,bandwidth_kbps\n0,5\n", "t.csv: one row under time_* gives no period length: the last row lasts as long as the row before it; add a row, or give duration_* or end_* instead"),
        ("end_s,bandwidth_kbps\n0,5\n1,6\n", "t.csv:2: end_s 0 ends a period that starts at 0 and lasts no time; if the times are period starts, name the column time_s"),
        ("end_ms,bandwidth_kbps\n10,5\n5,6\n", "t.csv:3: end_ms 5 does not come after the previous row's 10; times must increase"),
        ("\n\n", "t.csv: the file is empty"),
    ])
    func rejectsBadInput(text: String, expected: String) {
        #expect(TraceTestSupport.parseError(text, file: "t.csv", format: .csv)?.description == expected)
    }

    @Test(arguments: [
        ("0,1.5\n1,2\n", "t.csv:1: unknown column '0'"),
        ("time_s,signal_dbm,bandwidth_kbps\n1,-80,5\n", "t.csv:1: unknown column 'signal_dbm'"),
        ("bandwidth_kbps,latency_ms\n1,2\n", "t.csv:1: the header has no time_*, end_* or duration_* column"),
        ("time_s,latency_ms\n1,2\n", "t.csv:1: the header has no bandwidth_* column"),
    ])
    func rejectsHeadersWithoutTheNeededColumns(text: String, expectedPrefix: String) throws {
        let description = try #require(TraceTestSupport.parseError(text, file: "t.csv", format: .csv)?.description)
        #expect(description.hasPrefix(expectedPrefix))
        #expect(description.contains("the header names time_s|time_ms (period starts), end_s|end_ms (period ends) or duration_s|duration_ms"))
    }

    @Test(arguments: [
        ("time_s,bandwidth_kbps\n1,0.5\n2,0.8\n", "every bandwidth is under 1 kbit/s (at most 0.8 kbps); are the values in a larger unit than kbit/s?"),
        ("time_s,bandwidth_mbps\n1,4000\n2,6000\n", "median bandwidth is 5000 mbps, over 1 Gbit/s; are the values in a smaller unit than Mbit/s?"),
        ("time_s,bandwidth_bps\n1,300\n2,900\n", "every bandwidth is under 1 kbit/s (at most 900 bps); are the values in a larger unit than bit/s?"),
        ("duration_ms,bandwidth_kbps\n1,500\n2,500\n", "the median period lasts 1.5 ms, under 10 ms; are the times in seconds?"),
        ("time_s,bandwidth_kbps\n5000,100\n10000,100\n", "the median period lasts 5000 s, over an hour; are the times in milliseconds?"),
    ])
    func warnsAboutLikelyWrongUnits(text: String, expected: String) throws {
        let loaded = try TraceLoader.parse(text, file: "t.csv")
        #expect(loaded.warnings.map(\.description) == ["t.csv: warning: \(expected)"])
    }
}
