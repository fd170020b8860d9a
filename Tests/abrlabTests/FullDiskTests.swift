import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted for one test, unmounted when it ends.
final class SmallDisk {
    let folder: URL
    let mountPoint: URL

    /// Whether this process may mount a tmpfs (root, or CAP_SYS_ADMIN in a container that allows it).
    static let canMount: Bool = {
        guard let disk = try? SmallDisk(size: "64k") else { return false }
        disk.unmount()
        return true
    }()

    static let skipMessage: Comment = "mounting a tmpfs is not allowed here (needs root or CAP_SYS_ADMIN); full-disk tests skipped"

    init(size: String) throws {
        folder = try CLI.temporaryFolder()
        mountPoint = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        let mounted = try CLI.runTool("/usr/bin/env", ["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint.path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Grows the disk, as freeing space would.
    func resize(_ size: String) throws {
        let result = try CLI.runTool("/usr/bin/env", ["mount", "-o", "remount,size=\(size)", mountPoint.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Fills the disk to the last byte.
    func fill() throws -> URL {
        let filler = mountPoint.appendingPathComponent("filler")
        let descriptor = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return filler
    }

    func unmount() {
        _ = try? CLI.runTool("/usr/bin/env", ["umount", mountPoint.path])
        try? FileManager.default.removeItem(at: folder)
    }

    func entries(_ path: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mountPoint.appendingPathComponent(path).path).sorted()
    }
}

/// A run that fills the disk leaves it as it was (without --resume), or leaves checkpoints the
/// same command continues (with --resume): never a half-written folder that blocks the next run.
@Suite(.tags(.cli), .selectedByTags, .enabled(if: SmallDisk.canMount, SmallDisk.skipMessage))
struct FullDiskTests {
    /// 30 traces whose results (about 10 MB with the buffer timeline) cannot fit on 2 MiB.
    static func bigRun(in folder: URL) throws -> [String] {
        let traces = folder.appendingPathComponent("traces")
        let generated = try CLI.run(["traces", "generate", "--preset", "4g", "--count", "30", "--out-dir", traces.path, "--duration-s", "120"])
        #expect(generated.status == 0, "\(generated.stderr)")
        return [
            "compare", "--strategies", "conservative", "bba-native", "--traces", traces.path, "--video", "Traces/video.json",
            "--buffer-timeline", "--checkpoint-s", "0", "--quiet",
        ]
    }

    static func expectOutOfSpace(_ result: CLI.Output, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("abrlab: ") && result.stderr.hasSuffix(": No space left on device\n"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
    }

    /// The folder's earlier results (if any) stay as they were; nothing else stays.
    @Test(arguments: [false, true])
    func aRunThatFillsTheDiskLeavesNothingBehind(earlierResults: Bool) throws {
        let disk = try SmallDisk(size: "2m")
        defer { disk.unmount() }
        let out = disk.mountPoint.appendingPathComponent("results")
        if earlierResults { #expect(try CLI.run(OutputFolderCLITests.base + ["--out", out.path]).status == 0) }
        let before = earlierResults ? try OutputFolderCLITests.tree(out) : [:]
        Self.expectOutOfSpace(try CLI.run(try Self.bigRun(in: disk.folder) + ["--out", out.path]))
        if earlierResults {
            #expect(try OutputFolderCLITests.tree(out) == before)
            #expect(try disk.entries("results") == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
        } else {
            #expect(try disk.entries() == [], "the failed run left files (or its folder) on the disk")
        }
    }

    /// The same command continues from the checkpoints once there is room, and ends with the
    /// bytes of a run that never ran out.
    @Test func aResumableRunThatFillsTheDiskIsContinuedByTheSameCommand() throws {
        let disk = try SmallDisk(size: "2m")
        defer { disk.unmount() }
        let run = try Self.bigRun(in: disk.folder) + ["--resume"]
        let out = disk.mountPoint.appendingPathComponent("results")
        Self.expectOutOfSpace(try CLI.run(run + ["--out", out.path]))
        let partial = out.appendingPathComponent(".abrlab-partial")
        #expect(try disk.entries("results") == [".abrlab-partial"])
        #expect(!(try CLI.read(partial.appendingPathComponent("plan"))).isEmpty)
        #expect(try CLI.read(partial.appendingPathComponent("journal")).contains("traces=1 "), "no checkpoint before the disk filled")

        try disk.resize("64m")
        let resumed = try CLI.run(run + ["--out", out.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let alone = disk.folder.appendingPathComponent("alone")
        #expect(try CLI.run(run + ["--out", alone.path]).status == 0)
        let expected = try OutputFolderCLITests.tree(alone)
        let actual = try OutputFolderCLITests.tree(out)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (name, data) in expected where name != "run.json" { #expect(actual[name] == data, "\(name) differs") }
    }

    /// A disk full before the plan is recorded leaves no empty `plan` that would make the same
    /// command refuse the folder as "an interrupted run of a different plan".
    @Test func aResumableRunOnAFullDiskLeavesNothingThatBlocksTheSameCommand() throws {
        let disk = try SmallDisk(size: "2m")
        defer { disk.unmount() }
        let run = try Self.bigRun(in: disk.folder) + ["--resume", "--out", disk.mountPoint.appendingPathComponent("results").path]
        let filler = try disk.fill()
        Self.expectOutOfSpace(try CLI.run(run))
        #expect(try disk.entries() == ["filler"])
        try FileManager.default.removeItem(at: filler)
        try disk.resize("64m")
        let again = try CLI.run(run)
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A mount point is a file system root: refused while it holds anything.
    @Test func aFileSystemRootIsAcceptedOnlyEmpty() throws {
        let disk = try SmallDisk(size: "2m")
        defer { disk.unmount() }
        let empty = try CLI.run(OutputFolderCLITests.base + ["--out", disk.mountPoint.path])
        #expect(empty.status == 0, "\(empty.stderr)")
        let again = try CLI.run(OutputFolderCLITests.base + ["--out", disk.mountPoint.path])
        #expect(again.status == 1)
        #expect(again.stderr == "abrlab: \(disk.mountPoint.path): is the root of a file system and not empty; give the results a folder of their own (such as \(disk.mountPoint.path)/results)\n")
    }
}
