import Foundation
import Testing
import TestSupport

/// Warnings print whatever `--quiet` says (it silences progress only) and are recorded in
/// `run.json`; shards record theirs and `merge` lists them as the unsharded run does.
@Suite(.tags(.cli), .selectedByTags) struct RunWarningsTests {
    /// A folder of traces: copies of shipped ones, and for each name in `kbps` a trace whose
    /// bits per second are labelled kbps (1000 times the bandwidth), which draws a unit warning.
    static func traces(in folder: URL, plain: [String], kbps: [String]) throws -> URL {
        let traces = folder.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let shipped = try CLI.read(CLI.packageRoot.appendingPathComponent("Traces/default/4g_1.csv"))
        for name in plain { try Data(shipped.utf8).write(to: traces.appendingPathComponent(name)) }
        let scaled = shipped.replacingOccurrences(of: "bandwidth_bps", with: "bandwidth_kbps")
        for name in kbps { try Data(scaled.utf8).write(to: traces.appendingPathComponent(name)) }
        return traces
    }

    /// The warnings `run.json` in `folder` records.
    static func recorded(_ folder: URL) throws -> [String]? {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("run.json"))) as? [String: Any]
        return manifest?["warnings"] as? [String]
    }

    static func printed(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map { String($0.dropFirst("abrlab: ".count)) }
    }

    @Test func warningsPrintWithQuietAndAreRecordedInRunJSON() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = try Self.traces(in: folder, plain: ["a.csv"], kbps: ["b_kbps.csv"])
        // A folder whose script has a native id runs under it, with a warning.
        let strategies = folder.appendingPathComponent("strategies")
        try FileManager.default.createDirectory(at: strategies, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("Strategies/conservative.lua"), to: strategies.appendingPathComponent("conservative.lua")
        )
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run([
            "compare", "--strategies", strategies.path, "bba-native", "--traces", traces.path, "--profile", "pensieve",
            "--segments", "4", "--quiet", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = Self.printed(result.stderr)
        #expect(lines.count == 3, "\(result.stderr)")
        // The plan's warnings first (the video, the script), then the traces'.
        #expect(lines.first?.hasPrefix("warning: --profile pensieve with video 'Traces/video.json', which is not Pensieve's") == true)
        #expect(lines.dropFirst().first == "\(strategies.path)/conservative.lua: warning: has the id of the native strategy 'conservative'; results under 'conservative' are this script's")
        #expect(lines.last?.hasPrefix("\(traces.path)/b_kbps.csv: warning: median bandwidth is ") == true)
        #expect(try Self.recorded(out) == lines)
    }

    @Test func aRunWithoutWarningsRecordsAnEmptyList() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--quiet", "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(try Self.recorded(out) == [])
    }

    /// Each shard records the plan's warnings and its own traces'; merged, the list (and the whole
    /// run.json but for how it was run) is the unsharded run's, and merge prints it again.
    @Test func shardsMergeTheirWarningsIntoTheUnshardedList() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = try Self.traces(in: folder, plain: ["b.csv", "c.csv"], kbps: ["a_kbps.csv", "d_kbps.csv"])
        let run = ["compare", "--strategies", "conservative", "bba-native", "--traces", traces.path, "--profile", "pensieve", "--segments", "4", "--quiet"]
        let whole = folder.appendingPathComponent("whole")
        let unsharded = try CLI.run(run + ["--out", whole.path])
        #expect(unsharded.status == 0, "\(unsharded.stderr)")
        let expected = try Self.recorded(whole) ?? []
        #expect(expected.count == 3)
        #expect(expected == Self.printed(unsharded.stderr))
        var shards: [String] = []
        for index in 0..<2 {
            let out = folder.appendingPathComponent("shard-\(index)")
            let result = try CLI.run(run + ["--shard", "\(index)/2", "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            // The video's warning, and one trace's: a_kbps in the first shard, d_kbps in the second.
            #expect(try Self.recorded(out) == [expected[0], expected[index + 1]])
            shards.append(out.path)
        }
        let merged = folder.appendingPathComponent("merged")
        let merge = try CLI.run(["merge"] + shards.reversed() + ["--out", merged.path, "--quiet"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(Self.printed(merge.stderr) == expected)
        #expect(try Self.recorded(merged) == expected)
        let mergedRun = try Data(contentsOf: merged.appendingPathComponent("run.json"))
        #expect(try MergeTests.plan(mergedRun) == (try MergeTests.plan(Data(contentsOf: whole.appendingPathComponent("run.json")))))
    }
}
