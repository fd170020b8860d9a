import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceFormatTests {
    @Test func rawValuesAreCommandLineNames() {
        #expect(TraceFormat.allCases.map(\.rawValue) == ["pensieve", "sabre", "mahimahi", "csv"])
        #expect(TraceFormat(rawValue: "sabre") == .sabre)
        #expect(TraceFormat.allCases.map(\.fileExtension) == [nil, "json", nil, "csv"])
    }

    @Test(arguments: [
        ("0.0\t4.03\n0.55\t4.79\n", nil, TraceFormat?.some(.pensieve)),
        ("\n  0 1\n", nil, .pensieve),
        ("[\n {\"duration_ms\": 1}\n]", nil, .sabre),
        ("\u{FEFF}  {", nil, .sabre),
        ("12\n12\n13\n", "up", .mahimahi),
        ("time_s,bandwidth_kbps\n1,2\n", nil, .csv),
        ("1,2\n", nil, .csv),
        ("0.0 1.0\n", "json", .pensieve),
        ("1.5\n", "csv", .csv),
        ("1.5\n", "JSON", .sabre),
        ("1.5\n", nil, nil),
        ("time_s bandwidth_kbps\n", nil, nil),
        ("1 2 3\n", "txt", nil),
        ("", nil, nil),
    ] as [(String, String?, TraceFormat?)])
    func detectsFormatFromContentThenExtension(text: String, fileExtension: String?, expected: TraceFormat?) {
        #expect(TraceFormat.detect(text: text, fileExtension: fileExtension) == expected)
    }

    @Test func explicitFormatOverridesDetection() throws {
        #expect(try TraceLoader.parse("1\n2\n", file: "t").format == .mahimahi)
        let error = TraceTestSupport.parseError("1\n2\n", file: "t", format: .pensieve)
        #expect(error?.description == "t:1: expected 2 fields (time_s and bandwidth_Mbps), found 1")
        #expect(TraceTestSupport.parseError("1,2\n", file: "t", format: .mahimahi)?.description
            == "t:1: timestamp '1,2' is not a whole number")
    }

    @Test func explicitFormatCanReadAnAmbiguousFile() throws {
        #expect(TraceTestSupport.parseError("time_s bandwidth_kbps\n", file: "t")?.description
            == "t:1: cannot tell the trace format from 'time_s bandwidth_kbps'; name it: pensieve, sabre, mahimahi, csv")
        #expect(TraceTestSupport.parseError("  \n", file: "t")?.description == "t: the file is empty")
    }

    @Test(arguments: [
        ("traces/norway_bus_1", "norway_bus_1"), ("mmsys18/4Glogs/report_foo.json", "report_foo"),
        ("x.CSV", "x"), ("cell.down", "cell.down"), (".json", ".json"), ("a.json.txt", "a.json.txt"),
        ("é.Json", "é"), ("😀.csv", "😀"), ("a\u{0E}json", "a\u{0E}json"), ("a.jsoñ", "a.jsoñ"), ("folder/", "folder"),
    ])
    func namesTracesAfterTheirFiles(file: String, name: String) {
        #expect(TraceLoader.traceName(forFile: file) == name)
    }

    @Test func optionsCanRenameTheTrace() throws {
        #expect(try TraceLoader.parse("0 1\n1 2\n", file: "t", options: TraceLoadOptions(name: "renamed")).trace.name == "renamed")
    }

    @Test func loadsFilesAndFolders() throws {
        let fixtures = try FixtureDirectory()
        let folder = try fixtures.folder("set")
        try fixtures.write("set/b.csv", "end_s,bandwidth_kbps\n1,100\n")
        try fixtures.write("set/a", "0 1\n1 2\n")
        try fixtures.write("set/.hidden", "junk")
        try fixtures.write("set/c.json", #"[{"duration_ms": 500, "bandwidth_kbps": 8}]"#)
        let traces = try TraceLoader.loadDirectory(folder)
        #expect(traces.map(\.trace.name) == ["a", "b", "c"])
        #expect(traces.map(\.format) == [.pensieve, .csv, .sabre])
        let single = try TraceLoader.load(folder.appendingPathComponent("b.csv"))
        #expect(single.trace.bandwidthBitsPerSecond == [100_000])
    }

    @Test func fileErrorsNameThePath() throws {
        let fixtures = try FixtureDirectory()
        let missing = fixtures.url.appendingPathComponent("missing")
        #expect(throws: InputError(file: missing.path, "no such file")) { try TraceLoader.load(missing) }
        #expect(throws: InputError(file: fixtures.url.path, "is a folder, not a trace file")) { try TraceLoader.load(fixtures.url) }
        let bad = try fixtures.write("bad", "0 1\n1 x\n")
        #expect(throws: InputError(file: bad.path, line: 2, "bandwidth 'x' is not a number")) { try TraceLoader.load(bad) }
    }
}
