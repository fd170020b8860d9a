import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli), .selectedByTags) struct DiffTests {
    static let base = ["compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default/3g_1.csv",
                       "Traces/default/4g_1.csv", "--video", "Traces/video.json", "--quiet"]

    @Test func identicalFoldersExitZeroAndChangedOnesOneWithTheDeltas() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a").path
        let b = folder.appendingPathComponent("b").path
        let c = folder.appendingPathComponent("c").path
        #expect(try CLI.run(Self.base + ["--out", a]).status == 0)
        #expect(try CLI.run(Self.base + ["--out", b, "--jobs", "1"]).status == 0)
        #expect(try CLI.run(Self.base + ["--out", c, "--rebuffer-penalty", "10"]).status == 0)

        let same = try CLI.run(["diff", a, b])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("no session changed"))
        #expect(same.stdout.hasSuffix("run.json: same settings and inputs\n"))

        let changed = try CLI.run(["diff", a, c])
        #expect(changed.status == 1)
        #expect(changed.stdout.hasSuffix("run.json differs in: qoe_model.rebuffer_penalty, rebuffer_penalty, settings.rebuffer_penalty\n"), "\(changed.stdout)")
        // conservative stalls on 3g_1, so its QoE drops there by (10 − 4.3) × its rebuffering.
        let row = try #require(changed.stdout.split(separator: "\n").first { $0.hasPrefix("conservative  3g_1") })
        #expect(row.contains("-"))
        let withTolerance = try CLI.run(["diff", a, c, "--tolerance", "1e9"])
        #expect(withTolerance.status == 0)
    }

    /// Runs of a strategy whose `require`d helper changed differ in that module, named by its file.
    @Test func aChangedModuleIsReportedByName() throws {
        let fixture = try ScriptFilesFixture()
        let run = ["compare", "--strategies", fixture.path("S/my_rule.lua"), "--traces", "Traces/default/3g_1.csv", "Traces/default/4g_1.csv",
                   "--video", "Traces/video.json", "--quiet"]
        #expect(try CLI.run(run + ["--out", fixture.path("a")]).status == 0)
        try fixture.edit("S/lib/myhelpers.lua", "return k / s", "return k * s")
        #expect(try CLI.run(run + ["--out", fixture.path("b")]).status == 0)
        let result = try CLI.run(["diff", fixture.path("a"), fixture.path("b")])
        #expect(result.stdout.hasSuffix("run.json differs in: strategies[my_rule].inputs[myhelpers.lua].sha256\n"), "\(result.stdout)")
    }

    @Test func aSessionThatFailsOnOneSideOnlyIsAChange() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = "strategy,trace,profile,qoe_model,segments,qoe_total,qoe_per_segment,avg_bitrate_kbps,rebuffer_s,rebuffer_ratio,stalls,switches,startup_s,seed,error\n"
        for (name, row) in [("a", "s,t,default,linear,48,10.0,0.2,1,0,0,0,0,0,1,\n"), ("b", "s,t,default,linear,,,,,,,,,,1,\"boom, at segment 40\"\n")] {
            let out = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try (header + row).write(to: out.appendingPathComponent("sessions.csv"), atomically: true, encoding: .utf8)
        }
        let result = try CLI.run(["diff", folder.appendingPathComponent("a").path, folder.appendingPathComponent("b").path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 changed session(s):"), "\(result.stdout)")
        let row = try #require(result.stdout.split(separator: "\n").last { $0.hasPrefix("s ") })
        #expect(row.split(separator: " ") == ["s", "t", "10", "failed", "-"])
    }

    @Test func anUnreadableFolderExitsTwo() throws {
        let result = try CLI.run(["diff", "Traces", "Strategies"])
        #expect(result.status == 2)
        #expect(result.stderr == "abrlab: \(CLI.packageRoot.path)/Traces/sessions.csv: cannot read the file\n")
    }
}
