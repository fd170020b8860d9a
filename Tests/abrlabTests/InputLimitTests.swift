import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli), .selectedByTags) struct InputLimitTests {
    /// `traces info` on a 2 GiB sparse file fails at once with one line naming the file, and so
    /// does a compare given it as a trace or as the video.
    @Test func aHugeSparseFileIsRefusedWithOneLine() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.csv")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let expected = "abrlab: \(huge.path): is too large: inputs are read whole and limited to 64 MiB; this file is 2 GiB\n"

        let info = try CLI.run(["traces", "info", huge.path])
        #expect(info.status == 1)
        #expect(info.stderr == expected)
        #expect(info.stdout.isEmpty)

        let out = folder.appendingPathComponent("results")
        let asTrace = try CLI.run(["compare", "--strategies", "conservative", "--traces", huge.path, "--out", out.path, "--quiet"])
        #expect(asTrace.status == 1)
        #expect(asTrace.stderr == expected)
        let asVideo = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", huge.path, "--out", out.path, "--quiet"])
        #expect(asVideo.status == 1)
        #expect(asVideo.stderr == expected)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A native model, or a small link to a big file, is refused by the target's size at once.
    @Test func aModelIsCappedByTheSizeOfWhatItsLinkLeadsTo() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.bin")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let link = folder.appendingPathComponent("model.safetensors")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: huge.path)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run([
            "compare", "--strategies", "pensieve-native", "--param", "pensieve-native.model=\(link.path)", "--traces", "Traces/default/3g_1.csv",
            "--out", out.path, "--quiet",
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(link.path): model files are limited to 64 MiB; this file is 300 MiB\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A module linked from outside the script's folder stops the run before any session.
    @Test func aModuleLinkedFromOutsideTheScriptsFolderIsRefused() throws {
        let fixture = try ScriptFilesFixture()
        try fixture.write("secret.lua", "return { ratio = function() return 1 end }\n")
        try FileManager.default.removeItem(atPath: fixture.path("S/lib/myhelpers.lua"))
        try FileManager.default.createSymbolicLink(atPath: fixture.path("S/lib/myhelpers.lua"), withDestinationPath: fixture.path("secret.lua"))
        let out = fixture.root.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", fixture.path("S/my_rule.lua"), "--traces", "Traces/default/3g_1.csv", "--out", out.path])
        let secret = URL(fileURLWithPath: fixture.path("secret.lua")).resolvingSymlinksInPath().path
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(fixture.path("S/my_rule.lua")):1: module 'lib.myhelpers': \(fixture.path("S/lib/myhelpers.lua")) leads to "
            + "\(secret), outside the script's folder \(fixture.path("S")); modules must lie inside it\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A parameter grid is capped like every other input, by the size of what a link points to:
    /// a sparse 65 MiB grid, given directly or through a symlink, is refused at once, unread.
    @Test func aGridOverTheCapIsRefusedThroughALinkToo() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.csv")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("bola.gp\n3\n".utf8)))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let link = folder.appendingPathComponent("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "huge.csv")
        let out = folder.appendingPathComponent("results")
        for grid in [huge.path, link.path] {
            let result = try CLI.run([
                "compare", "--strategies", "Strategies/bola.lua", "--traces", "Traces/default/3g_1.csv", "--param-grid", grid, "--out", out.path, "--quiet",
            ])
            #expect(result.status == 1)
            #expect(result.stderr == "abrlab: \(grid): is too large: inputs are read whole and limited to 64 MiB; this file is 65 MiB\n")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
