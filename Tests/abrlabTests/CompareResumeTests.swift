import Foundation
import Testing
import TestSupport

/// A compare killed with SIGKILL and resumed ends with the bytes of an uninterrupted run.
@Suite(.tags(.cli), .selectedByTags) struct CompareResumeTests {
    @Test(arguments: ["csv", "csv.gz", "csv.zst"])
    func aRunKilledHalfwayAndResumedEqualsAnUninterruptedOne(format: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = try CLI.generatedTraces(in: folder)
        let run = [
            "compare", "--strategies", "Strategies/robust_mpc.lua", "Strategies/bba.lua", "Strategies/bola.lua", "--param", "bola.gp=3,5,8",
            "--traces", traces.path, "--video", "Traces/video.json", "--segments-format", format, "--quiet", "--jobs", "1",
        ]
        let whole = folder.appendingPathComponent("whole")
        #expect(try CLI.run(run + ["--out", whole.path]).status == 0)

        let killed = folder.appendingPathComponent("killed")
        // Killed once a few traces are checkpointed, well before the end.
        try Self.killedRun(run, out: killed, records: 8)
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent("sessions.csv").path), "partial work appeared as a result")

        let resumed = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for name in ["sessions.csv", format == "csv" ? "segments.csv" : "segments.\(format)", "transitions.csv", "summary.csv"] {
            #expect(try Data(contentsOf: killed.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name) differs")
        }
        #expect(!FileManager.default.fileExists(atPath: killed.appendingPathComponent(".abrlab-partial").path))
    }

    /// Starts `arguments` and kills it with SIGKILL once `records` checkpoints are written.
    static func killedRun(_ arguments: [String], out: URL, records: Int) throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments + ["--out", out.path, "--checkpoint-s", "0"]
        process.currentDirectoryURL = CLI.packageRoot
        process.standardError = FileHandle.nullDevice
        try process.run()
        let journal = out.appendingPathComponent(".abrlab-partial/journal")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let written = (try? String(contentsOf: journal, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if written >= records { break }
            usleep(2000)
        }
        #expect(process.isRunning, "the run ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }

    /// A module edited while a run was interrupted would mix two versions of the code in one
    /// result: `--resume` refuses with one line naming it, whether the script names the module
    /// literally (in the fingerprint) or builds its name at run time (noted as sessions read it).
    @Test func resumingAfterAModuleEditIsRefusedNamingTheModule() throws {
        let fixture = try ScriptFilesFixture()
        let traces = fixture.root.appendingPathComponent("traces")
        let generated = try CLI.run(["traces", "generate", "--preset", "4g", "--count", "40", "--out-dir", traces.path, "--duration-s", "120"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let run = [
            "compare", "--strategies", fixture.path("S/my_rule.lua"), fixture.path("S/late.lua"), "Strategies/robust_mpc.lua",
            "--traces", traces.path, "--video", "Traces/video.json", "--quiet", "--jobs", "1",
        ]
        let killed = fixture.root.appendingPathComponent("killed")
        try Self.killedRun(run, out: killed, records: 2)
        let partial = killed.appendingPathComponent(".abrlab-partial")
        let note = try CLI.read(partial.appendingPathComponent("loaded-files.json"))
        #expect(note.contains("lib.myhelpers") && note.contains("lib.rt"), "\(note)")

        for (file, old, new) in [("S/lib/myhelpers.lua", "return k / s", "return k / s / 2"), ("S/lib/rt.lua", "level = 2", "level = 1")] {
            try fixture.edit(file, old, new)
            let refused = try CLI.run(run + ["--out", killed.path, "--resume"])
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("abrlab: \(fixture.path(file)): changed since the interrupted run in \(partial.path) loaded it (sha256 "), "\(refused.stderr)")
            #expect(refused.stderr.hasSuffix("resuming would mix two versions in one result: restore it, or run without --resume to start over\n"))
            #expect(refused.stderr.split(separator: "\n").count == 1)
            #expect(FileManager.default.fileExists(atPath: partial.path), "the interrupted run was discarded")
            try fixture.edit(file, new, old)
        }
        // A module gone since: the error names the line of the script that requires it, and the module's file.
        let module = fixture.path("S/lib/myhelpers.lua")
        try FileManager.default.moveItem(atPath: module, toPath: module + ".away")
        let missing = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(missing.stderr == "abrlab: \(fixture.path("S/my_rule.lua")):1: module 'lib.myhelpers' not found: no file \(module)\n")
        try FileManager.default.moveItem(atPath: module + ".away", toPath: module)
        // One only a session required (by a built name): the refusal names the module's file.
        let late = fixture.path("S/lib/rt.lua")
        try FileManager.default.moveItem(atPath: late, toPath: late + ".away")
        let lateMissing = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(lateMissing.stderr == "abrlab: \(late): the interrupted run in \(partial.path) loaded this file, which cannot be read the same way now "
            + "(module 'lib.rt' not found: no file \(late)); restore it, or run without --resume to start over\n")
        try FileManager.default.moveItem(atPath: late + ".away", toPath: late)
        // With the files as they were, the run continues and records every module it read.
        let resumed = try CLI.run(run + ["--out", killed.path, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let manifest = try CLI.read(killed.appendingPathComponent("run.json"))
        #expect(manifest.contains(fixture.path("S/lib/myhelpers.lua")) && manifest.contains(fixture.path("S/lib/rt.lua")))
    }

    @Test func resumingAnotherPlansRunIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let partial = folder.appendingPathComponent(".abrlab-partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data("abrlab-plan 2\nfingerprint something-else\n".utf8).write(to: partial.appendingPathComponent("plan"))
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", folder.path, "--resume",
        ])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(partial.path): holds an interrupted run of a different plan or shard; remove it or run without --resume\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sessions.csv").path))
    }
}
