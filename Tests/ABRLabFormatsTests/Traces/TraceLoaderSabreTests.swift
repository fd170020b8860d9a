import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceLoaderSabreTests {
    static let network = """
        [
            {"duration_ms": 30000, "bandwidth_kbps": 5000, "latency_ms":  75},
            {"duration_ms": 1013, "bandwidth_kbps": 1285.5, "latency_ms": 150}
        ]
        """

    @Test func readsPeriodsInBitsAndSeconds() throws {
        let loaded = try TraceLoader.parse(Self.network, file: "data/network.json")
        #expect(loaded.format == .sabre)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.trace.name == "network")
        #expect(loaded.trace.periodEndSeconds == [30, 31.013])
        #expect(loaded.trace.bandwidthBitsPerSecond == [5_000_000, 1_285_500])
        #expect(loaded.trace.latencySeconds == [0.075, 0.15])
    }

    @Test func latencyIsOptionalForTheWholeTrace() throws {
        let trace = try TraceLoader.parse(#"[{"bandwidth_kbps": 100, "duration_ms": 500}]"#, file: "x.json").trace
        #expect(trace.periodEndSeconds == [0.5])
        #expect(trace.latencySeconds == nil)
    }

    @Test func endTimesSumMillisecondsBeforeDividing() throws {
        let periods = Array(repeating: #"{"duration_ms": 100, "bandwidth_kbps": 1}"#, count: 30)
        let trace = try TraceLoader.parse("[" + periods.joined(separator: ",") + "]", file: "x.json").trace
        #expect(trace.periodEndSeconds == (1...30).map { Double($0 * 100) / 1000 })
    }

    @Test(arguments: [
        (#"{"duration_ms": 1}"#, "t.json:1: a Sabre trace must be an array, not an object"),
        ("\n[ ]", "t.json:2: the trace is empty"),
        ("[1, 2]", "t.json:1: element [0] must be an object, not a number"),
        (
            "[\n {\"duration_ms\": 1000, \"bandwidth_kbps\": 100},\n {\"duration_ms\": 1000}\n]",
            "t.json:3: element [1] has no bandwidth_kbps"
        ),
        ("[\n {\"bandwidth_kbps\": 100}\n]", "t.json:2: element [0] has no duration_ms"),
        (
            "[\n {\"duration_ms\": 1000,\n  \"bandwidth_kbps\": -5}\n]",
            "t.json:3: element [0] bandwidth_kbps is -5; it must be ≥ 0"
        ),
        (#"[{"duration_ms": 0, "bandwidth_kbps": 5}]"#, "t.json:1: element [0] duration_ms is 0; it must be > 0"),
        (#"[{"duration_ms": 10, "bandwidth_kbps": "5"}]"#, "t.json:1: element [0] bandwidth_kbps must be a number, not a string"),
        (#"[{"duration_ms": 10, "bandwidth_kbps": 1e999}]"#, "t.json:1: element [0] bandwidth_kbps is too large"),
        (
            #"[{"duration_ms": 10, "bandwidth_mbps": 5}]"#,
            "t.json:1: element [0] has an unknown key \"bandwidth_mbps\"; Sabre periods have duration_ms, bandwidth_kbps and latency_ms"
        ),
        (
            "[\n {\"duration_ms\": 10, \"bandwidth_kbps\": 5, \"latency_ms\": 20},\n {\"duration_ms\": 10, \"bandwidth_kbps\": 5}\n]",
            "t.json:3: element [1] has no latency_ms, though element [0] (line 2) has one"
        ),
        (
            "[\n {\"duration_ms\": 10, \"bandwidth_kbps\": 5}\n {\"duration_ms\": 10, \"bandwidth_kbps\": 5}\n]",
            "t.json:3: unexpected '{'; expected ',' or ']'"
        ),
        ("[\n {\"duration_ms\": 10, \"bandwidth_kbps\": 5}\n", "t.json:3: unexpected end of file; expected ',' or ']'"),
        (#"[{"duration_ms": 10, "bandwidth_kbps": 5}] x"#, "t.json:1: unexpected 'x' after the JSON value"),
        (#"[{"duration_ms": 10, "duration_ms": 5}]"#, "t.json:1: duplicate key \"duration_ms\""),
        (#"[{"duration_ms": 1-2, "bandwidth_kbps": 5}]"#, "t.json:1: '1-2' is not a number"),
    ])
    func rejectsBadInput(text: String, expected: String) {
        #expect(TraceTestSupport.parseError(text, file: "t.json", format: .sabre)?.description == expected)
    }

    @Test func warnsWhenKilobitsLookLikeMegabits() throws {
        let loaded = try TraceLoader.parse(#"[{"duration_ms": 1000, "bandwidth_kbps": 0.5}, {"duration_ms": 1000, "bandwidth_kbps": 0.8}]"#, file: "t.json")
        #expect(loaded.warnings.map(\.message) == [
            "every bandwidth is under 1 kbit/s (at most 0.8 kbps); are the values in a larger unit than kbit/s?",
        ])
    }

    @Test func readsEscapedStringsInKeys() throws {
        let trace = try TraceLoader.parse(#"[{"duration\u005fms": 1000, "bandwidth_kbps": 2}]"#, file: "t.json").trace
        #expect(trace.periodEndSeconds == [1])
    }

    /// The same file with its keys escaped (`duration\u005fms`), which the plain-form scanner
    /// leaves to the general JSON reader: two readers, one trace.
    static func readByTheGeneralReader(_ text: String) -> String {
        ["duration_ms", "bandwidth_kbps", "latency_ms"].reduce(text) { text, key in
            text.replacingOccurrences(of: "\"\(key)\"", with: "\"" + key.replacingOccurrences(of: "_", with: "\\u005f") + "\"")
        }
    }

    /// Whitespace, line ends, a byte order mark, key order, number forms and a trace without
    /// latency: the scanner and the general reader give the same trace and warnings.
    @Test(arguments: [
        Self.network,
        #"[{"duration_ms":1000,"bandwidth_kbps":2}]"#,
        "\u{FEFF}[\r\n {\"latency_ms\": 20, \"bandwidth_kbps\": 1.5e3, \"duration_ms\": 250.5}\r\n,\t{\"duration_ms\": 1E3, \"latency_ms\": 0, \"bandwidth_kbps\": -0}\r\n]\r\n",
        #"[{"duration_ms": 0.001, "bandwidth_kbps": 0.5}, {"bandwidth_kbps": 123456789012, "duration_ms": 7}]"#,
    ])
    func theScannerReadsWhatTheGeneralReaderReads(text: String) throws {
        let general = Self.readByTheGeneralReader(text)
        #expect(general != text)
        #expect(try TraceLoader.parse(text, file: "t.json") == TraceLoader.parse(general, file: "t.json"))
    }

    /// Every Sabre trace of the study's four sets reads the same through both readers.
    @Test(.tags(.datasets), .needsDatasets("sabre/mmsys18"), arguments: ["3Glogs", "4Glogs", "hd_fs", "sd_fs"])
    func everyDatasetTraceReadsTheSameThroughBothReaders(set: String) throws {
        let folder = Datasets.url("sabre/mmsys18/\(set)")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let general = Self.readByTheGeneralReader(text)
            #expect(general != text, "\(name)")
            #expect(try TraceLoader.parse(text, file: name) == TraceLoader.parse(general, file: name), "\(name)")
        }
    }
}
