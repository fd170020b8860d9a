import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceLoaderPensieveTests {
    @Test func periodsFollowPensieveArithmeticExactly() throws {
        let text = "0.0\t4.03768755221\n0.549999952316\t4.79283060109\n0.879999876022   4.49231799163\n"
        let loaded = try TraceLoader.parse(text, file: "traces/norway_bus_1")
        #expect(loaded.format == .pensieve)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.trace.name == "norway_bus_1")
        #expect(loaded.trace.periodEndSeconds == [0.549999952316 - 0.0, 0.879999876022 - 0.0])
        #expect(loaded.trace.bandwidthBitsPerSecond == [4.79283060109 * 1_000_000, 4.49231799163 * 1_000_000])
        #expect(loaded.trace.latencySeconds == nil)
    }

    @Test func startTimeIsSubtractedAndFirstBandwidthIgnored() throws {
        let text = "1.5 999\n2.0 3\r\n3.25 4\r\n\n"
        let trace = try TraceLoader.parse(text, file: "t", format: .pensieve).trace
        #expect(trace.periodEndSeconds == [2.0 - 1.5, 3.25 - 1.5])
        #expect(trace.bandwidthBitsPerSecond == [3_000_000, 4_000_000])
    }

    @Test(arguments: [
        ("0.0\t1.0\n1.0\tabc\n", "t:2: bandwidth 'abc' is not a number"),
        ("0.0\t1.0\nx\t1.0\n", "t:2: time 'x' is not a number"),
        ("0 1\n1 nan\n", "t:2: bandwidth is nan; it must be a finite number"),
        ("0 1\n1 inf\n", "t:2: bandwidth is inf; it must be a finite number"),
        ("0 1\n1 -2\n", "t:2: bandwidth is -2; it must be ≥ 0"),
        ("0 1\n2 1\n1 1\n", "t:3: time 1 s does not come after the previous line's 2 s"),
        ("0 1\n1 1\n1 1\n", "t:3: time 1 s does not come after the previous line's 1 s"),
        ("0 1 3\n1 2\n", "t:1: expected 2 fields (time_s and bandwidth_Mbps), found 3"),
        ("0 1\n\n5\n", "t:3: expected 2 fields (time_s and bandwidth_Mbps), found 1"),
        ("0 1\n", "t: the trace has one line; Pensieve traces need two or more, as the first only marks the start"),
        ("\n  \n", "t: the trace is empty"),
    ])
    func rejectsBadInput(text: String, expected: String) {
        #expect(TraceTestSupport.parseError(text, file: "t", format: .pensieve)?.description == expected)
    }

    @Test func warnsWhenMegabitsLookLikeKilobits() throws {
        let loaded = try TraceLoader.parse("0 1500\n1 2000\n2 2500\n", file: "t")
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.description.hasPrefix("t: warning: median bandwidth is 2250 mbps, over 1 Gbit/s") == true)
    }

    @Test func warnsWhenNoPeriodDeliversData() throws {
        let loaded = try TraceLoader.parse("0 0\n1 0\n", file: "t")
        #expect(loaded.warnings.map(\.message) == ["no period delivers data, so no download can finish on this trace"])
    }
}
