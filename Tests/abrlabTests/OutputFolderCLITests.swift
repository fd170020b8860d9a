import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `--out` belongs to the run: stale files go, foreign results stop the run, interrupts leave
/// no temporary files.
@Suite(.tags(.cli), .selectedByTags) struct OutputFolderCLITests {
    static let base = ["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", "Traces/video.json", "--quiet"]

    static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aStaleFileOfTheEarlierRunIsRemovedAndOtherFilesStay() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try CLI.run(Self.base + ["--buffer-timeline", "--out", out.path]).status == 0)
        #expect(try Self.entries(out).contains("buffer_timeline.csv"))
        try "my notes".write(to: out.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(Self.base + ["--out", out.path]).status == 0)
        #expect(try Self.entries(out) == [
            "notes.txt", "ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv",
        ])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        #expect(manifest["files"] as? [String] == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }

    @Test func resultsNoRunRecordedMakeTheRunRefuse() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        try "strategy\n".write(to: out.appendingPathComponent("sessions.csv"), atomically: true, encoding: .utf8)
        let result = try CLI.run(Self.base + ["--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(out.path)/sessions.csv: not written by a run abrlab recorded (the folder has no run.json); remove it or choose another --out\n")
        #expect(try Self.entries(out) == ["sessions.csv"])
    }

    /// Every file under `folder`, hidden ones and those in subfolders too, by relative path.
    static func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = try Data(contentsOf: url)
        }
        return files
    }

    /// What a killed merge left half-written (named for a live process: only the lock says that
    /// no run owns it), an older abrlab's temporary file and a killed run's lock file all go with
    /// the next run into the folder, whichever command it is and whether or not it succeeds; the
    /// results stay as they were.
    @Test(arguments: [
        (["compare", "--strategies", "no-such-strategy"], Int32(1)),
        (["merge", "/nonexistent/shard-0"], Int32(1)),
        (base, Int32(0)),
    ])
    func whatAKilledRunLeftGoesWithTheNextRun(command: [String], status: Int32) throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try CLI.run(Self.base + ["--out", out.path]).status == 0)
        let results = try Self.tree(out)
        let partial = out.appendingPathComponent(".abrlab-partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
        try Data(count: 1 << 20).write(to: partial.appendingPathComponent(".segments.csv.tmp-\(getpid())-\(UUID().uuidString)"))
        try Data("partial".utf8).write(to: out.appendingPathComponent(".summary.csv.tmp-\(getpid())-\(UUID().uuidString)"))
        try Data("pid 999999 on elsewhere: abrlab merge shards/0 --out results\n".utf8).write(to: out.appendingPathComponent(".abrlab-lock"))
        let result = try CLI.run(command + ["--out", out.path])
        #expect(result.status == status, "\(result.stderr)")
        #expect(try Self.tree(out) == results)
        #expect(try Self.entries(out) == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }

    /// `--out /` or `--out ~` would scatter results among unrelated files: refused unless empty.
    @Test(arguments: ["compare", "merge"])
    func aFileSystemRootOrTheHomeDirectoryIsRefusedUnlessEmpty(command: String) throws {
        let home = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let arguments = command == "compare" ? Self.base : ["merge", "/nonexistent/shard-0", "--quiet"]
        let names = ["sessions.csv", "summary.csv", "run.json", ".abrlab-lock", ".abrlab-partial"]
        #expect(names.allSatisfy { !FileManager.default.fileExists(atPath: "/" + $0) }, "/ already holds result files")
        // Runs that would fail later anyway, so an abrlab that let them through writes nothing into /.
        let failing = command == "compare" ? ["compare", "--strategies", "no-such-strategy", "--quiet"] : arguments
        let root = try CLI.run(failing + ["--out", "/"])
        #expect(root.status == 1)
        #expect(root.stderr == "abrlab: /: is the root of a file system and not empty; give the results a folder of their own (such as /results)\n")
        #expect(names.allSatisfy { !FileManager.default.fileExists(atPath: "/" + $0) })

        try Data("mine".utf8).write(to: home.appendingPathComponent("notes.txt"))
        let inHome = try CLI.run(arguments + ["--out", home.path], environment: ["HOME": home.path])
        #expect(inHome.status == 1)
        #expect(inHome.stderr == "abrlab: \(home.path): is the home directory and not empty; give the results a folder of their own (such as \(home.path)/results)\n")
        #expect(try Self.entries(home) == ["notes.txt"])
        guard command == "compare" else { return }
        #expect(try CLI.run(arguments + ["--out", home.appendingPathComponent("results").path], environment: ["HOME": home.path]).status == 0)
        try FileManager.default.removeItem(at: home.appendingPathComponent("notes.txt"))
        try FileManager.default.removeItem(at: home.appendingPathComponent("results"))
        let emptyHome = try CLI.run(arguments + ["--out", home.path], environment: ["HOME": home.path])
        #expect(emptyHome.status == 0, "\(emptyHome.stderr)")
        #expect(try Self.entries(home).contains("sessions.csv"))
    }

    /// A compare slow enough to interrupt: every decision spins a while.
    static func slowStrategy(in folder: URL) throws -> URL {
        let script = folder.appendingPathComponent("slow.lua")
        try "return { choose = function(ctx) local x = 0; for i = 1, 200000 do x = x + i end; return 1 end }\n"
            .write(to: script, atomically: true, encoding: .utf8)
        return script
    }

    /// A resumable run (`--resume`) keeps its checkpoints for the next `--resume`; any other run
    /// leaves nothing at all: not even the --out folder when the run created it.
    @Test(arguments: [
        (SIGINT, Int32(130), true, false), (SIGTERM, Int32(143), true, false), (SIGINT, Int32(130), false, false),
        (SIGINT, Int32(130), false, true),
    ])
    func anInterruptedRunLeavesOnlyItsCheckpointsAndResumes(signalNumber: Int32, status: Int32, resumable: Bool, folderExisted: Bool) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        if folderExisted { try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false) }
        let arguments = [
            "compare", "--strategies", try Self.slowStrategy(in: folder).path, "--traces", "Traces/default", "--video", "Traces/video.json",
            "--buffer-timeline", "--jobs", "1", "--lua-instructions", "100000000", "--out", out.path, "--quiet",
        ]
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments + (resumable ? ["--resume"] : [])
        process.currentDirectoryURL = CLI.packageRoot
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Wait until the run is writing: its checkpoint journal exists.
        let journal = out.appendingPathComponent(".abrlab-partial/journal")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !FileManager.default.fileExists(atPath: journal.path) { usleep(5_000) }
        #expect(process.isRunning, "the compare finished before it could be interrupted")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == status)
        #expect(stderr.hasPrefix("abrlab: interrupted by SIG"), "\(stderr)")
        // No result under a real name, no temporary file and no lock file: only the checkpoints
        // --resume continues, and the folder only if it was there before.
        guard resumable else {
            #expect(FileManager.default.fileExists(atPath: out.path) == folderExisted)
            if folderExisted { #expect(try Self.entries(out) == []) }
            return
        }
        #expect(try Self.entries(out) == [".abrlab-partial"])
        let resumed = try CLI.run(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.entries(out).contains("sessions.csv"))
        #expect(!(try Self.entries(out)).contains(".abrlab-partial"))
    }
}
