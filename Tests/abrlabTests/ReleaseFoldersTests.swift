import Foundation
import Testing
import TestSupport

/// Folders written by abrlab 0.1.0 (76a60e0; Fixtures/release-0.1.0, made by that release):
/// its run.json named settings by Swift properties and its plans were fingerprinted another
/// way, so this release neither resumes nor merges them — it refuses in one line naming the
/// release that wrote them, and writes nothing.
@Suite(.tags(.cli), .selectedByTags) struct ReleaseFoldersTests {
    static func copyOfFixtures() throws -> URL {
        let folder = try CLI.temporaryFolder()
        for name in ["shard-0", "shard-1", "interrupted", "slow.lua"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/release-0.1.0/\(name)"),
                to: folder.appendingPathComponent(name)
            )
        }
        return folder
    }

    @Test func anInterruptedRunOfTheLastReleaseIsRefusedNamingIt() throws {
        let folder = try Self.copyOfFixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("interrupted")
        let result = try CLI.run([
            "compare", "--strategies", folder.appendingPathComponent("slow.lua").path, "--traces", "Traces/3g", "--jobs", "1",
            "--lua-instructions", "100000000", "--out", out.path, "--quiet", "--resume",
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(out.path)/.abrlab-partial: holds an interrupted run of abrlab 0.1.0, which this release (0.2.0) cannot continue: its plans are fingerprinted another way; resume it with abrlab 0.1.0, or run without --resume\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }

    @Test func shardsOfTheLastReleaseAreRefusedNamingIt() throws {
        let folder = try Self.copyOfFixtures()
        defer { try? FileManager.default.removeItem(at: folder) }
        let merged = folder.appendingPathComponent("merged")
        let result = try CLI.run(["merge", folder.appendingPathComponent("shard-0").path, folder.appendingPathComponent("shard-1").path, "--out", merged.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(folder.path)/shard-0/run.json: was written by abrlab 0.1.0, whose run.json this release (0.2.0) does not read; merge these shards with abrlab 0.1.0, or rerun them\n")
        #expect(!FileManager.default.fileExists(atPath: merged.appendingPathComponent("run.json").path))
    }
}
