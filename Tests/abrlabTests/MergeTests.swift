import Foundation
import Testing
import TestSupport

/// Sharded compares merged back together, and every way a merge must refuse its input.
@Suite(.tags(.cli), .selectedByTags) struct MergeTests {
    /// Natives and a swept Lua strategy over the shipped traces, with every optional file.
    static let run = [
        "compare", "--strategies", "conservative", "bba-native", "Strategies/bola.lua", "--param", "bola.gp=3,8",
        "--traces", "Traces/default", "--video", "Traces/video.json", "--baseline", "conservative",
        "--buffer-timeline", "--quiet", "--jobs", "2",
    ]

    static func files(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// run.json without what describes how the run was executed rather than what it computed.
    static func plan(_ data: Data?) throws -> NSDictionary {
        var manifest = try JSONSerialization.jsonObject(with: data ?? Data()) as? [String: Any] ?? [:]
        manifest["command"] = nil
        manifest["jobs"] = nil
        return manifest as NSDictionary
    }

    /// Runs the shards into `folder/shard-K` and returns their paths.
    static func shards(_ count: Int, in folder: URL, extra: [String] = []) throws -> [String] {
        try (0..<count).map { index in
            let out = folder.appendingPathComponent("shard-\(index)").path
            let result = try CLI.run(run + extra + ["--shard", "\(index)/\(count)", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            return out
        }
    }

    @Test(arguments: [["--segments-format", "csv"], ["--segments-format", "csv.gz"], ["--segments-format", "csv.zst"]])
    func mergedShardsEqualTheUnshardedRunByteForByte(format: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(Self.run + format + ["--out", whole.path]).status == 0)
        // 12 traces over 5 shards: uneven on purpose.
        let shards = try Self.shards(5, in: folder, extra: format)
        let merged = folder.appendingPathComponent("merged")
        let result = try CLI.run(["merge"] + shards.reversed() + ["--out", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("merged 5 shards (48 sessions)"))
        let expected = try Self.files(whole)
        let actual = try Self.files(merged)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (name, data) in expected where name != "run.json" { #expect(actual[name] == data, "\(name) differs") }
        #expect(try Self.plan(actual["run.json"]) == (try Self.plan(expected["run.json"])))
        let table = try CLI.run(Array(Self.run.filter { $0 != "--quiet" }) + format + ["--out", whole.path]).stdout
        #expect(result.stdout.replacingOccurrences(of: "merged 5 shards (48 sessions) into \(merged.path)/", with: "")
            == table.replacingOccurrences(of: "wrote 48 sessions to \(whole.path)/", with: ""))
    }

    @Test func theShardComesFromSlurmOrKubernetesEnvironments() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let slurm = folder.appendingPathComponent("slurm")
        let fromMinMax = try CLI.run(Self.run + ["--out", slurm.path], environment: [
            "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4",
        ])
        #expect(fromMinMax.status == 0, "\(fromMinMax.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: slurm.appendingPathComponent("run.json"))) as? [String: Any]
        let shard = manifest?["shard"] as? [String: Any]
        #expect(shard?["index"] as? Int == 2 && shard?["count"] as? Int == 4)
        let kubernetes = try CLI.run(Self.run + ["--out", folder.appendingPathComponent("k8s").path, "--shard-count", "4"], environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(kubernetes.status == 0, "\(kubernetes.stderr)")
        #expect(try Self.files(folder.appendingPathComponent("k8s"))["sessions.csv"] == (try Self.files(slurm))["sessions.csv"])
        let noCount = try CLI.run(Self.run + ["--out", folder.appendingPathComponent("x").path], environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(noCount.stderr == "abrlab: JOB_COMPLETION_INDEX: is set; give the number of completions as --shard-count N\n")
    }

    /// `merge s0 s1 --out s0` overwrote shard 0 with the merged result, so the set could never be
    /// merged again; now it is refused in one line and every shard is left as it was.
    @Test func anOutFolderThatIsOneOfTheShardsIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shards = try Self.shards(2, in: folder)
        let before = try shards.map { try Self.files(URL(fileURLWithPath: $0)) }
        for (out, named) in [(shards[0], shards[0]), (shards[1] + "/.", shards[1])] {
            let result = try CLI.run(["merge", shards[0], shards[1], "--out", out])
            #expect(result.status == 1)
            #expect(result.stderr == "abrlab: --out: \(out) is the shard folder \(named) given to merge; write the merge into another --out\n")
        }
        #expect(try shards.map { try Self.files(URL(fileURLWithPath: $0)) } == before)
        #expect(try CLI.run(["merge", shards[0], shards[1], "--out", folder.appendingPathComponent("merged").path, "--quiet"]).status == 0)
    }

    @Test func badShardSetsGetOneLineAndNoOutput() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shards = try Self.shards(3, in: folder)
        let otherPlan = folder.appendingPathComponent("other-1")
        #expect(try CLI.run(Self.run + ["--seed", "2", "--shard", "1/3", "--out", otherPlan.path]).status == 0)
        let corrupt = folder.appendingPathComponent("corrupt-2")
        try FileManager.default.copyItem(atPath: shards[2], toPath: corrupt.path)
        let segments = corrupt.appendingPathComponent("segments.csv")
        var bytes = try Data(contentsOf: segments)
        bytes[bytes.count / 2] = UInt8(ascii: "7") == bytes[bytes.count / 2] ? UInt8(ascii: "8") : UInt8(ascii: "7")
        try bytes.write(to: segments)
        let truncated = folder.appendingPathComponent("truncated-2")
        try FileManager.default.copyItem(atPath: shards[2], toPath: truncated.path)
        try Data().write(to: truncated.appendingPathComponent("transitions.csv"))

        let cases: [([String], String)] = [
            ([shards[0], shards[1]], "abrlab: merge: shard 2/3 missing\n"),
            ([shards[0]], "abrlab: merge: shards 1/3, 2/3 missing\n"),
            ([shards[0], shards[1], shards[2], shards[1]], "abrlab: \(shards[1]): is shard 1/3 again (also \(shards[1]))\n"),
            ([shards[0], otherPlan.path, shards[2]], "belongs to a different plan"),
            ([shards[0], shards[1], corrupt.path], "abrlab: \(segments.path): does not match the size and checksum its run.json records (corrupt, truncated or changed)\n"),
            ([shards[0], shards[1], truncated.path], "transitions.csv: does not"),
            ([shards[0], folder.path], "abrlab: \(folder.path)/run.json: missing: not a compare result folder, or its run did not finish\n"),
        ]
        for (arguments, message) in cases {
            let out = folder.appendingPathComponent("merged")
            let result = try CLI.run(["merge"] + arguments + ["--out", out.path])
            #expect(result.status == 1)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(message.hasPrefix("abrlab: ") ? result.stderr == message : result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "merge left output behind for \(arguments)")
        }
    }

    /// The issue's case: shard 0, the `require`d helper edited, shard 1. The merge is refused
    /// with one line naming the module, and nothing is written.
    @Test func aModuleEditedBetweenShardsIsRefusedNamingTheModule() throws {
        let fixture = try ScriptFilesFixture()
        let run = ["compare", "--strategies", fixture.path("S/my_rule.lua"), "bba", "--traces", "Traces/3g", "Traces/4g",
                   "--video", "Traces/video.json", "--quiet"]
        let shard0 = fixture.path("s0"), shard1 = fixture.path("s1"), merged = fixture.path("m")
        #expect(try CLI.run(run + ["--shard", "0/2", "--out", shard0]).status == 0)
        try fixture.edit("S/lib/myhelpers.lua", "return k / s", "return 1.3 * k / s")
        #expect(try CLI.run(run + ["--shard", "1/2", "--out", shard1]).status == 0)
        let result = try CLI.run(["merge", shard0, shard1, "--out", merged])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("abrlab: \(fixture.path("S/lib/myhelpers.lua")): strategy my_rule read other bytes of this file in \(shard1) "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("it changed between the shards' runs; rerun the shards with the same files\n"))
        #expect(!FileManager.default.fileExists(atPath: merged))
    }

    /// Modules read by a name only running code knows are not in the fingerprint: each shard
    /// records those it read, the merge lists them all as the unsharded run does, and refuses
    /// shards that read different bytes of one.
    @Test func modulesReadAtRunTimeAreCheckedAcrossShardsAndListedFromEvery() throws {
        let fixture = try ScriptFilesFixture()
        let run = ["compare", "--strategies", fixture.path("S/dyn.lua"), fixture.path("S/late.lua"), "--traces", "Traces/default/3g_1.csv", "Traces/default/3g_2.csv",
                   "Traces/default/4g_1.csv", "Traces/default/4g_2.csv", "--video", "Traces/video.json", "--qoe", fixture.path("Q/dq.lua"), "--quiet"]
        let whole = fixture.root.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["--out", whole.path]).status == 0)
        let shards = try (0..<2).map { index throws in
            let out = fixture.path("shard-\(index)")
            let result = try CLI.run(run + ["--shard", "\(index)/2", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            return out
        }
        // Each shard read one of the two modules of each kind: 3g traces in shard 0, 4g ones in shard 1.
        for (shard, kind) in zip(shards, ["3g", "4g"]) {
            let manifest = try CLI.read(URL(fileURLWithPath: shard).appendingPathComponent("run.json"))
            #expect(manifest.contains(fixture.path("S/lib/t_\(kind).lua")) && manifest.components(separatedBy: "S/lib/t_").count == 2, "\(shard)")
            #expect(manifest.contains(fixture.path("Q/w_\(kind).lua")) && manifest.components(separatedBy: "Q/w_").count == 2, "\(shard)")
        }
        let merged = fixture.root.appendingPathComponent("merged")
        let result = try CLI.run(["merge"] + shards + ["--out", merged.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.plan(Data(contentsOf: merged.appendingPathComponent("run.json"))) == (try Self.plan(Data(contentsOf: whole.appendingPathComponent("run.json")))))
        let lines = { (url: URL) in try CLI.read(url.appendingPathComponent("run.json")).split(separator: "\n").filter { !$0.contains("shard") && !$0.hasPrefix("    \"") } }
        #expect(try lines(merged) == (try lines(whole)), "run.json differs beyond the command line")

        // Every shard reads lib/rt.lua at run time; edited between them, the merge is refused.
        try fixture.edit("S/lib/rt.lua", "level = 2", "level = 3")
        #expect(try CLI.run(run + ["--shard", "1/2", "--out", shards[1]]).status == 0)
        let refused = try CLI.run(["merge"] + shards + ["--out", fixture.path("refused")])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("abrlab: \(fixture.path("S/lib/rt.lua")): strategy late read other bytes of this file in \(shards[1]) "), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("refused")))
    }

    @Test func moreShardsThanTracesLeavesSomeEmptyAndStillMerges() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = ["compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default/4g_1.csv", "Traces/default/3g_1.csv",
                   "--video", "Traces/video.json", "--quiet"]
        #expect(try CLI.run(run + ["--out", folder.appendingPathComponent("whole").path]).status == 0)
        var shards: [String] = []
        for index in 0..<3 {
            let out = folder.appendingPathComponent("shard-\(index)").path
            let result = try CLI.run(run + ["--shard", "\(index)/3", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            shards.append(out)
        }
        let sizes = try shards.map { try CLI.read(URL(fileURLWithPath: $0).appendingPathComponent("sessions.csv")).split(separator: "\n").count - 1 }
        #expect(sizes.sorted() == [0, 2, 2])
        let merged = folder.appendingPathComponent("merged")
        #expect(try CLI.run(["merge"] + shards + ["--out", merged.path, "--quiet"]).status == 0)
        let expected = try Self.files(folder.appendingPathComponent("whole"))
        let actual = try Self.files(merged)
        for (name, data) in expected where name != "run.json" { #expect(actual[name] == data, "\(name) differs") }
    }
}
