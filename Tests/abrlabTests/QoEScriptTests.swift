import Foundation
import Testing
import TestSupport

/// `--qoe model.lua`: a QoE model written in Lua scores sessions through the command line.
@Suite(.tags(.cli), .selectedByTags) struct QoEScriptTests {
    static let run = ["compare", "--strategies", "bba", "conservative", "--traces", "Traces/default", "--quiet"]

    @Test func theLinearExampleGivesTheBuiltInScores() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let native = folder.appendingPathComponent("native")
        let scripted = folder.appendingPathComponent("scripted")
        let first = try CLI.run(Self.run + ["--out", native.path])
        let second = try CLI.run(Self.run + ["--qoe", "QoE/linear.lua", "--out", scripted.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        for file in ["sessions.csv", "segments.csv", "summary.csv"] {
            let a = try CLI.read(native.appendingPathComponent(file))
            let b = try CLI.read(scripted.appendingPathComponent(file))
            #expect(a.replacingOccurrences(of: ",linear,", with: ",QoE/linear.lua,") == b, "\(file)")
        }
        let manifest = try CLI.read(scripted.appendingPathComponent("run.json"))
        #expect(manifest.contains(#""qoe" : "QoE/linear.lua""#))
        #expect(manifest.contains(#""qoe_file" : {"#))
        #expect(!manifest.contains("\n  \"rebuffer_penalty\""), "a Lua model sets its own weights: no top-level rebuffer_penalty")
    }

    @Test func aVMAFModelScoresAManifestsQuality() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (0..<10).map { (segment: Int) -> String in
            let scores: [String] = (0..<3).map { (level: Int) -> String in String(40 + 25 * level - segment) }
            return "[ " + scores.joined(separator: ", ") + " ]"
        }
        let sizes = (0..<10).map { _ in "[ 1200000, 3000000, 6000000 ]" }
        let manifest = folder.appendingPathComponent("q.json")
        try """
            {"segment_duration_ms": 4000, "bitrates_kbps": [300, 750, 1500],
             "segment_sizes_bits": [\(sizes.joined(separator: ", "))],
             "segment_vmaf": [\(rows.joined(separator: ", "))]}
            """.write(to: manifest, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["run", "--strategy", "bba", "--trace", "Traces/default/broadband_1.csv", "--video", manifest.path, "--qoe", "QoE/vmaf.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(QoE/vmaf.lua, "))

        let missing = try CLI.run(["compare", "--strategies", "bba", "--traces", "Traces/default/3g_1.csv", "--qoe", "QoE/vmaf.lua", "--out", out.path, "--quiet"])
        #expect(missing.status == 1)
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv"))
        #expect(sessions.contains("QoE/vmaf.lua:25: the video carries no VMAF scores; give a manifest with segment_vmaf (qoe, segment 1)"))
    }

    @Test(arguments: [
        (["--qoe", "QoE/nope.lua"], "abrlab: QoE/nope.lua: no such file\n"),
        (["--qoe", "QoE/linear.lua", "--rebuffer-penalty", "2"], "abrlab: --rebuffer-penalty: applies to the built-in QoE models; a Lua model sets its own weights\n"),
        (["--qoe", "vmaf"], "abrlab: --qoe: unknown QoE model 'vmaf'; choose linear, log, hd, sabre, nqoe or a Lua model script (.lua)\n"),
        (["--qoe", "Strategies/bba.lua"], "abrlab: Strategies/bba.lua: the QoE script defines no qoe function\n"),
    ])
    func badModelsGetOneLine(arguments: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "bba", "--traces", "Traces/default/3g_1.csv", "--out", out.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
