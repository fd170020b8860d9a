import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One run at a time in a folder: a second compare or merge into a folder in use refuses at once,
/// names the run that holds it and touches nothing; the first ends as if alone.
@Suite(.tags(.cli), .selectedByTags) struct ConcurrentRunTests {
    /// Holds `folder`'s lock from the test process, as another run would.
    final class HeldLock {
        let descriptor: Int32

        init(_ folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            descriptor = open(folder.appendingPathComponent(".abrlab-lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            try #require(descriptor >= 0)
            try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        }

        /// Lets go as a killed run does: the lock file stays behind, unlocked.
        func drop() { close(descriptor) }
    }

    /// The first run is stopped (SIGSTOP) once it holds the folder, so the second meets it
    /// mid-run however fast the machine is; resumed, it must end byte for byte as a run alone.
    @Test(arguments: [[], ["--resume"], ["--shard", "1/2"]])
    func aSecondRunIntoAFolderInUseRefusesAndTheFirstEndsComplete(extra: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let first = [
            "compare", "--strategies", try OutputFolderCLITests.slowStrategy(in: folder).path, "conservative", "--traces", "Traces/default",
            "--video", "Traces/video.json", "--lua-instructions", "100000000", "--jobs", "1", "--quiet",
        ] + extra
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = first + ["--out", out.path]
        process.currentDirectoryURL = CLI.packageRoot
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGCONT)
            if process.isRunning { process.terminate() }
        }
        let owner = "pid \(process.processIdentifier) on "
        let lockFile = out.appendingPathComponent(".abrlab-lock")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning, (try? CLI.read(lockFile))?.hasPrefix(owner) != true { usleep(1000) }
        kill(process.processIdentifier, SIGSTOP)
        try #require(process.isRunning, "the first run ended before the second could meet it")
        let before = try OutputFolderCLITests.tree(out)

        let second = try CLI.run([
            "compare", "--strategies", "bba-native", "conservative", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", out.path,
        ])
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("abrlab: \(out.path): in use by another abrlab run (\(owner)"), "\(second.stderr)")
        #expect(second.stderr.contains(": abrlab compare --strategies "), "the command is named: \(second.stderr)")
        #expect(second.stderr.hasSuffix("); wait for it to end or choose another --out\n"), "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").count == 1)
        let merge = try CLI.run(["merge", folder.appendingPathComponent("shard").path, "--out", out.path])
        #expect(merge.status == 1)
        #expect(merge.stderr.hasPrefix("abrlab: \(out.path): in use by another abrlab run (\(owner)"), "\(merge.stderr)")
        #expect(try OutputFolderCLITests.tree(out) == before, "a refused run changed the folder")

        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let alone = folder.appendingPathComponent("alone")
        #expect(try CLI.run(first + ["--out", alone.path]).status == 0)
        let expected = try OutputFolderCLITests.tree(alone)
        let actual = try OutputFolderCLITests.tree(out)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (name, data) in expected where name != "run.json" { #expect(actual[name] == data, "\(name) differs from the run alone") }
    }

    /// A holder that has not written its line yet (here: one that never does) is found in the
    /// kernel's lock table; once it lets go, even leaving its lock file, the next run proceeds
    /// and leaves no lock file behind.
    @Test func aHolderIsNamedFromTheKernelsLockTableAndALeftLockFileIsTakenOver() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let held = try HeldLock(out)
        let refused = try CLI.run(OutputFolderCLITests.base + ["--out", out.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("abrlab: \(out.path): in use by another abrlab run (pid \(getpid()): "), "\(refused.stderr)")
        #expect(try OutputFolderCLITests.entries(out) == [".abrlab-lock"])
        held.drop()
        let ran = try CLI.run(OutputFolderCLITests.base + ["--out", out.path])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(try OutputFolderCLITests.entries(out) == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }

    /// A merge reads no shard folder a compare is still writing; it refuses and writes nothing.
    @Test func aMergeRefusesAShardFolderInUse() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = [
            "compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "Traces/default/4g_1.csv", "--video", "Traces/video.json",
            "--quiet",
        ]
        let shards = try (0..<2).map { index in
            let shard = folder.appendingPathComponent("shard-\(index)")
            let result = try CLI.run(run + ["--shard", "\(index)/2", "--out", shard.path])
            #expect(result.status == 0, "\(result.stderr)")
            return shard
        }
        let held = try HeldLock(shards[1])
        let merged = folder.appendingPathComponent("merged")
        let refused = try CLI.run(["merge", shards[0].path, shards[1].path, "--out", merged.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("abrlab: \(shards[1].path): in use by another abrlab run (pid \(getpid()): "), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("); wait for it to end\n"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: merged.path), "the refused merge left its --out folder")
        held.drop()
        let result = try CLI.run(["merge", shards[0].path, shards[1].path, "--out", merged.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        for shard in shards {
            #expect(try OutputFolderCLITests.entries(shard) == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
        }
        #expect(try OutputFolderCLITests.entries(merged) == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }
}
