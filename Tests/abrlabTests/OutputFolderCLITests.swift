import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--out` belongs to the run: stale files go, foreign results stop the run, interrupts leave
/// no temporary files.
@Suite struct OutputFolderCLITests {
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

    /// A compare slow enough to interrupt: every decision spins a while.
    static func slowStrategy(in folder: URL) throws -> URL {
        let script = folder.appendingPathComponent("slow.lua")
        try "return { choose = function(ctx) local x = 0; for i = 1, 200000 do x = x + i end; return 1 end }\n"
            .write(to: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptedRunLeavesOnlyItsCheckpointsAndResumes(signalNumber: Int32, status: Int32) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let arguments = [
            "compare", "--strategies", try Self.slowStrategy(in: folder).path, "--traces", "Traces/default", "--video", "Traces/video.json",
            "--buffer-timeline", "--jobs", "1", "--lua-instructions", "100000000", "--out", out.path, "--quiet",
        ]
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
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
        // No result under a real name and no temporary file: only the checkpoints --resume continues.
        #expect(try Self.entries(out) == [".abrlab-partial"])
        let resumed = try CLI.run(arguments + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.entries(out).contains("sessions.csv"))
        #expect(!(try Self.entries(out)).contains(".abrlab-partial"))
    }
}
