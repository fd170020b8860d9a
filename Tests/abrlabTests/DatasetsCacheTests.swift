import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the cache holds besides abrlab's copies: a folder a user made where a dataset goes is
/// never deleted, and `verify` says what an installed file has become (a folder, a FIFO, a huge
/// file) without reading more than one block at a time.
@Suite(.tags(.cli, .datasets), .selectedByTags, .needsDatasets("pensieve")) struct DatasetsCacheTests {
    let folder: URL
    let cache: URL
    let environment: [String: String]

    init() throws {
        (folder, cache, environment) = try CLI.datasetCache()
    }

    func datasets(_ arguments: [String]) throws -> CLI.Output {
        try DatasetsFaultTests.launch(["datasets"] + arguments, environment: environment).output
    }

    /// A folder with no marker is refused, kept and shown as not abrlab's; an empty folder and
    /// a copy of another registry version are abrlab's to replace.
    @Test func aFolderAbrlabDidNotInstallIsNeverDeleted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = cache.appendingPathComponent("pensieve/video")
        try FileManager.default.createDirectory(at: video, withIntermediateDirectories: true)
        let notes = video.appendingPathComponent("notes.txt")
        try Data("my own notes\n".utf8).write(to: notes)
        #expect(try datasets(["list"]).stdout.contains("pensieve/video                   video       not abrlab's (no marker)"))
        let refusal = "abrlab: pensieve/video: \(video.path): was not installed by abrlab (no .abrlab-dataset marker in it), so fetch leaves it as it is: "
            + "move it out of the cache (or remove it), then run: abrlab datasets fetch pensieve/video\n"
        for force in [[], ["--force"]] {
            let fetched = try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path] + force)
            #expect(fetched.status == 1)
            #expect(fetched.stderr == refusal)
            #expect(try CLI.read(notes) == "my own notes\n")
        }
        let path = try datasets(["path", "pensieve/video"])
        #expect(path.stderr == "abrlab: pensieve/video: \(video.path) was not installed by abrlab (no .abrlab-dataset marker in it): "
            + "move it out of the cache (or remove it), then run: abrlab datasets fetch pensieve/video\n")
        // Moved out, an empty folder in its place holds nothing to lose and is replaced.
        try FileManager.default.moveItem(at: video, to: folder.appendingPathComponent("my-video"))
        try FileManager.default.createDirectory(at: video, withIntermediateDirectories: true)
        #expect(try datasets(["list"]).stdout.contains("pensieve/video                   video       not fetched"))
        #expect(try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path]).status == 0)
        #expect(try CLI.read(folder.appendingPathComponent("my-video/notes.txt")) == "my own notes\n")
        // A copy with a marker of another registry version is abrlab's: replaced whole.
        try Data("0000\n".utf8).write(to: video.appendingPathComponent(".abrlab-dataset"))
        try Data("left by that version\n".utf8).write(to: video.appendingPathComponent("old_file"))
        let fetched = try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(!FileManager.default.fileExists(atPath: video.appendingPathComponent("old_file").path))
        #expect(try datasets(["verify", "pensieve/video"]).status == 0)
    }

    /// An installed file that became a folder or a FIFO is named as what it is (a FIFO without
    /// blocking), not as "missing".
    @Test func verifyNamesWhatAFileHasBecome() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path]).status == 0)
        let video = cache.appendingPathComponent("pensieve/video")
        try FileManager.default.removeItem(at: video.appendingPathComponent("video_size_1"))
        try FileManager.default.createDirectory(at: video.appendingPathComponent("video_size_1"), withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: video.appendingPathComponent("video_size_4"))
        try #require(mkfifo(video.appendingPathComponent("video_size_4").path, 0o644) == 0)
        let verified = try datasets(["verify", "pensieve/video"])
        #expect(verified.status == 1)
        #expect(verified.stderr == "abrlab: pensieve/video: video_size_1: is a folder, not a file\nabrlab: pensieve/video: video_size_4: is a FIFO, not a file\n")
    }

    /// A 2 GB file (sparse) where a 343-byte one belongs is named by its size, read from `stat`:
    /// under a 1 GiB address-space limit a read of it whole fails.
    @Test func verifyChecksTheSizeBeforeReading() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try datasets(["fetch", "pensieve/video", "--from", Datasets.root.path]).status == 0)
        let file = cache.appendingPathComponent("pensieve/video/video_size_0")
        try #require(truncate(file.path, 2 << 30) == 0)
        let command = "ulimit -v 1048576 && exec \"$0\" datasets verify pensieve/video"
        let verified = try CLI.runTool("/bin/sh", ["-c", command, CLI.binary.path], environment: environment)
        #expect(verified.status == 1)
        #expect(verified.stderr == "abrlab: pensieve/video: video_size_0: \(2 << 30) bytes, not the registry's\n")
    }
}
