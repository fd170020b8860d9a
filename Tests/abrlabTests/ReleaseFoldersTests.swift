import Foundation
import Testing
import TestSupport

/// Folders written by abrlab 0.1.0 (76a60e0; Fixtures/release-0.1.0, made by that release):
/// its run.json named settings by Swift properties and its plans were fingerprinted another
/// way, so this release neither resumes nor merges them — it refuses in one line naming the
/// release that wrote them, and writes nothing.
@Suite(.tags(.cli), .selectedByTags) struct ReleaseFoldersTests {
    /// A copy of the fixtures in a temporary folder. The paths the release recorded are kept
    /// as tokens (`@FIXTURES@` for the folder it ran in, `@REPOSITORY@` and `@RELEASE@` for the
    /// checkouts), put back here as this copy's own, so no test reads a file outside it.
    static func copyOfFixtures() throws -> URL {
        let folder = try CLI.temporaryFolder()
        for name in ["shard-0", "shard-1", "interrupted", "slow.lua"] {
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/release-0.1.0/\(name)"),
                to: folder.appendingPathComponent(name)
            )
        }
        let tokens = ["@FIXTURES@": folder.path, "@REPOSITORY@": CLI.packageRoot.path, "@RELEASE@": folder.appendingPathComponent("release").path]
        for name in ["shard-0/run.json", "shard-1/run.json", "interrupted/.abrlab-partial/loaded-files.json"] {
            let file = folder.appendingPathComponent(name)
            let text = tokens.reduce(try CLI.read(file)) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            try Data(text.utf8).write(to: file)
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
        // The plan is refused before the files it loaded are looked at: a script gone since says
        // nothing about why the run cannot continue.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("slow.lua"))
        let moved = folder.appendingPathComponent("moved")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/release-0.1.0/slow.lua"),
            to: moved.appendingPathComponent("slow.lua")
        )
        let gone = try CLI.run([
            "compare", "--strategies", moved.appendingPathComponent("slow.lua").path, "--traces", "Traces/3g", "--jobs", "1",
            "--lua-instructions", "100000000", "--out", out.path, "--quiet", "--resume",
        ])
        #expect(gone.stderr == result.stderr)
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
