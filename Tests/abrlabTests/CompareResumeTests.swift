import Foundation
import Testing

/// A compare killed with SIGKILL and resumed ends with the bytes of an uninterrupted run.
@Suite struct CompareResumeTests {
    @Test func aRunKilledHalfwayAndResumedEqualsAnUninterruptedOne() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces")
        let generated = try CLI.run(["traces", "generate", "--preset", "4g", "--count", "40", "--out-dir", traces.path, "--duration-s", "120"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let run = [
            "compare", "--strategies", "Strategies/robust_mpc.lua", "Strategies/bba.lua", "Strategies/bola.lua", "--param", "bola.gp=3,5,8",
            "--traces", traces.path, "--video", "Traces/video.json", "--segments-format", "csv.gz", "--quiet", "--jobs", "1",
        ]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["--out", whole.path]).status == 0)

        let killed = folder.appendingPathComponent("killed")
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = run + ["--out", killed.path, "--checkpoint-s", "0"]
        process.currentDirectoryURL = CLI.packageRoot
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once a few traces are checkpointed, well before the end.
        let journal = killed.appendingPathComponent(".abrlab-partial/journal")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let records = (try? String(contentsOf: journal, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if records >= 8 { break }
            usleep(2000)
        }
        #expect(process.isRunning, "the run ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent("sessions.csv").path), "partial work appeared as a result")

        let resumed = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for name in ["sessions.csv", "segments.csv.gz", "transitions.csv", "summary.csv"] {
            #expect(try Data(contentsOf: killed.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name) differs")
        }
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent(".abrlab-partial").path))
    }

    @Test func resumingAnotherPlansRunIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let partial = folder.appendingPathComponent(".abrlab-partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data("fingerprint something-else\n".utf8).write(to: partial.appendingPathComponent("plan"))
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", folder.path, "--resume",
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(partial.path): holds an interrupted run of a different plan or shard; remove it or run without --resume\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sessions.csv").path))
    }
}
