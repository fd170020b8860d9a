import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli, .golden), .selectedByTags) struct CommandLineTests {
    @Test(arguments: [
        (["--help"], "help.txt"),
        (["compare", "--help"], "compare-help.txt"),
        (["traces", "info", "Traces/default"], "traces-info-default.txt"),
    ])
    func matchesGoldenOutput(arguments: [String], golden: String) throws {
        let result = try CLI.launch(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        try CLI.expectGolden(result.stdout, golden)
    }

    /// Most tests run commands in process; these show a launched binary says exactly the same.
    @Test(arguments: [
        ["--help"], ["compare", "--help"], ["--version"], ["nope"], ["compare", "--jobs", "0"], ["compare", "--seed", "x"],
        ["compare", "--param", "a.b=1", "--param", "a.b=2", "--strategies", "bba"], ["help", "run"],
        ["run", "--strategy", "conservative", "--trace", "Traces/default/3g_1.csv", "--video", "Traces/video.json"],
        ["compare", "--profile", "pensieve", "--max-buffer-s", "-1"], ["traces", "generate", "--step-s", "0", "--out-dir", "/nonexistent"],
    ])
    func inProcessRunsSayWhatTheBinarySays(arguments: [String]) throws {
        let launched = try CLI.launch(arguments)
        let inProcess = try CLI.run(arguments)
        #expect(inProcess.status == launched.status)
        #expect(inProcess.stdout == launched.stdout)
        #expect(inProcess.stderr == launched.stderr)
    }

    @Test func versionIsPrinted() throws {
        let result = try CLI.run(["--version"])
        #expect(result.stdout == "0.2.0\n")
    }

    @Test func runPrintsTimelineAndTransitions() throws {
        let result = try CLI.launch(["run", "--strategy", "conservative", "--trace", "Traces/default/3g_1.csv", "--video", "Traces/video.json"])
        #expect(result.status == 0, "\(result.stderr)")
        try CLI.expectGolden(result.stdout, "run-conservative-3g_1.txt")
    }

    @Test func runTakesACountOfSegmentsNotAnOutputFormat() throws {
        let base = ["run", "--strategy", "conservative", "--trace", "Traces/default/3g_1.csv", "--video", "Traces/video.json"]
        let format = try CLI.run(base + ["--segments", "csv.gz"])
        #expect(format.status != 0)
        #expect(format.stderr == "abrlab: --segments: takes an integer, not 'csv.gz'; the format of segments.csv is --segments-format csv.gz\n")
        let count = try CLI.run(base + ["--segments", "5"])
        #expect(count.status == 0, "\(count.stderr)")
        // The timeline table: a header and one row per segment played, then a blank line.
        let rows = count.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(rows.count == 6)
    }

    @Test func generatedTracesAreReproducible() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["traces", "generate", "--preset", "3g", "--count", "3", "--out-dir", folder.path, "--seed", "1000", "--prefix", "3g"])
        #expect(result.status == 0, "\(result.stderr)")
        for index in 1...3 {
            let made = try CLI.read(folder.appendingPathComponent("3g_\(index).csv"))
            let shipped = try CLI.read(CLI.packageRoot.appendingPathComponent("Traces/default/3g_\(index).csv"))
            #expect(made == shipped)
        }
    }

    @Test func convertRoundTripsThroughCSV() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let toSabre = try CLI.run(["traces", "convert", "Traces/default/4g_1.csv", "--to", "sabre", "--out-dir", folder.path])
        #expect(toSabre.status == 0, "\(toSabre.stderr)")
        let back = try CLI.run(["traces", "convert", folder.appendingPathComponent("4g_1.json").path, "--to", "csv", "--out-dir", folder.appendingPathComponent("csv").path])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try CLI.read(folder.appendingPathComponent("csv/4g_1.csv")) == (try CLI.read(CLI.packageRoot.appendingPathComponent("Traces/default/4g_1.csv"))))
    }
}
