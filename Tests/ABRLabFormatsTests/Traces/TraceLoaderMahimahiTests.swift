import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceLoaderMahimahiTests {
    @Test func binsOpportunitiesIntoSecondsByDefault() throws {
        #expect(TraceLoadOptions.defaultMahimahiBinMilliseconds == 1000)
        let loaded = try TraceLoader.parse("1\n1\n2\n1000\n1500\n2000\n", file: "cell.down")
        #expect(loaded.format == .mahimahi)
        #expect(loaded.trace.name == "cell.down")
        #expect(loaded.trace.periodEndSeconds == [1, 2])
        #expect(loaded.trace.bandwidthBitsPerSecond == [4 * 12_000, 2 * 12_000])
        #expect(loaded.warnings.isEmpty)
    }

    @Test func lastBinEndsAtTheLastTimestamp() throws {
        let trace = try TraceLoader.parse("0\n999\n1001\n1500\n", file: "t").trace
        #expect(trace.periodEndSeconds == [1, 1.5])
        #expect(trace.bandwidthBitsPerSecond == [24_000, 48_000])
    }

    @Test func emptyBinsHaveNoBandwidth() throws {
        let trace = try TraceLoader.parse("1\n3000\n", file: "t").trace
        #expect(trace.periodEndSeconds == [1, 2, 3])
        #expect(trace.bandwidthBitsPerSecond == [12_000, 0, 12_000])
    }

    @Test func binWidthIsConfigurable() throws {
        let options = TraceLoadOptions(mahimahiBinMilliseconds: 100)
        let trace = try TraceLoader.parse("50\n100\n101\n250\n", file: "t", options: options).trace
        #expect(trace.periodEndSeconds == [0.1, 0.2, 0.25])
        #expect(trace.bandwidthBitsPerSecond == [240_000, 120_000, 240_000])
    }

    @Test(arguments: [
        ("1\n2.5\n", "t:2: timestamp '2.5' is not a whole number"),
        ("1\nfast\n", "t:2: timestamp 'fast' is not a whole number"),
        ("5\n3\n", "t:2: timestamp 3 ms comes before the previous line's 5 ms"),
        ("-3\n", "t:1: timestamp is -3; it must be ≥ 0"),
        ("1 2\n", "t:1: expected 1 field (a timestamp in ms), found 2"),
        ("0\n0\n", "t: the trace lasts 0 ms; its last timestamp sets the loop length and must be > 0"),
        ("\n", "t: the trace is empty"),
        ("1\n20000000000\n", "t:2: timestamp 20000000000 ms needs over 2000000 bins of 1000 ms; use wider bins"),
    ])
    func rejectsBadInput(text: String, expected: String) {
        #expect(TraceTestSupport.parseError(text, file: "t", format: .mahimahi)?.description == expected)
    }

    @Test func rejectsNonPositiveBinWidth() {
        let error = TraceTestSupport.parseError("1\n", file: "t", format: .mahimahi, options: TraceLoadOptions(mahimahiBinMilliseconds: 0))
        #expect(error?.description == "t: the Mahimahi bin width is 0 ms; it must be > 0")
    }
}
