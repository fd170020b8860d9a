import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceWriterTests {
    /// Whole-second periods delivering whole 1500-byte packets per second, so every format,
    /// Mahimahi included, can hold it exactly.
    static func sample() throws -> NetworkTrace {
        try NetworkTrace(
            name: "sample", periodEndSeconds: [1, 2, 3, 4], bandwidthBitsPerSecond: [1_200_000, 240_000, 0, 36_000],
            latencySeconds: [0.02, 0.03, 0.04, 0.05]
        )
    }

    @Test(arguments: TraceFormat.allCases)
    func roundTripsThroughText(format: TraceFormat) throws {
        let sample = try Self.sample()
        let text = try TraceWriter.text(for: sample, format: format)
        let loaded = try TraceLoader.parse(text, file: "sample", format: format)
        #expect(loaded.trace.periodEndSeconds == sample.periodEndSeconds)
        #expect(loaded.trace.bandwidthBitsPerSecond == sample.bandwidthBitsPerSecond)
        let keepsLatency = format == .sabre || format == .csv
        #expect(loaded.trace.latencySeconds == (keepsLatency ? sample.latencySeconds : nil))
    }

    @Test(arguments: TraceFormat.allCases)
    func roundTripsThroughFilesWithDetection(format: TraceFormat) throws {
        let fixtures = try FixtureDirectory()
        let url = fixtures.url.appendingPathComponent(["sample", format.fileExtension].compactMap { $0 }.joined(separator: "."))
        let sample = try Self.sample()
        try TraceWriter.write(sample, format: format, to: url)
        let loaded = try TraceLoader.load(url)
        #expect(loaded.format == format)
        #expect(loaded.trace.name == "sample")
        #expect(loaded.trace.bandwidthBitsPerSecond == sample.bandwidthBitsPerSecond)
    }

    @Test(arguments: [TraceFormat.pensieve, .csv])
    func keepsPensieveValuesBitForBit(format: TraceFormat) throws {
        let original = try TraceLoader.parse(
            "0.0\t4.03768755221\n0.549999952316\t4.79283060109\n0.879999876022\t0.1\n1.34999990463\t0.3\n", file: "t"
        ).trace
        let text = try TraceWriter.text(for: original, format: format)
        #expect(try TraceLoader.parse(text, file: "t", format: format).trace == original)
    }

    @Test func writesPensieveTextWithAStartLine() throws {
        let text = TraceWriter.pensieveText(try Self.sample())
        #expect(text == "0.0\t1.2\n1.0\t1.2\n2.0\t0.24\n3.0\t0.0\n4.0\t0.036\n")
    }

    @Test func writesSabreTextAsSabreDoes() throws {
        let text = """
            [
                {"duration_ms": 30000, "bandwidth_kbps": 5000, "latency_ms": 75},
                {"duration_ms": 1013, "bandwidth_kbps": 1285.5, "latency_ms": 150},
                {"duration_ms": 1008, "bandwidth_kbps": 0, "latency_ms": 100}
            ]

            """
        let trace = try TraceLoader.parse(text, file: "n.json").trace
        #expect(TraceWriter.sabreText(trace) == text)
    }

    @Test func writesCSVInTheTraceUnits() throws {
        let text = TraceWriter.csvText(try Self.sample())
        #expect(text == "end_s,bandwidth_bps,latency_s\n1,1200000,0.02\n2,240000,0.03\n3,0,0.04\n4,36000,0.05\n")
    }

    @Test func mahimahiStampsEachPacketWithTheMillisecondItCompletes() throws {
        let trace = try NetworkTrace(name: "m", periodEndSeconds: [1, 1.5], bandwidthBitsPerSecond: [24_000, 48_000])
        #expect(try TraceWriter.mahimahiText(trace) == "500\n1000\n1250\n1500\n")
    }

    @Test func mahimahiRoundTripsAtFinerBins() throws {
        let trace = try NetworkTrace(name: "m", periodEndSeconds: [0.1, 0.2, 0.3], bandwidthBitsPerSecond: [240_000, 120_000, 360_000])
        let text = try TraceWriter.mahimahiText(trace)
        let options = TraceLoadOptions(mahimahiBinMilliseconds: 100)
        #expect(try TraceLoader.parse(text, file: "m", format: .mahimahi, options: options).trace == trace)
    }

    @Test func mahimahiCannotExpressATraceWithoutPackets() throws {
        let trace = try NetworkTrace(name: "idle", periodEndSeconds: [2], bandwidthBitsPerSecond: [5_000])
        #expect(throws: InputError(file: "idle", "the trace delivers less than one 1500-byte packet; Mahimahi cannot express it")) {
            try TraceWriter.mahimahiText(trace)
        }
        let fixtures = try FixtureDirectory()
        let url = fixtures.url.appendingPathComponent("idle")
        #expect(throws: InputError(file: url.path, "the trace delivers less than one 1500-byte packet; Mahimahi cannot express it")) {
            try TraceWriter.write(trace, format: .mahimahi, to: url)
        }
    }
}
