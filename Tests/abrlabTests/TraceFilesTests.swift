import Foundation
import Testing
import TestSupport

/// Trace files as the file system has them: names that are not UTF-8, names that collide, and
/// files that are not regular files.
@Suite(.tags(.cli), .selectedByTags) struct TraceFilesTests {
    /// Runs `script` in `sh` with `$1` set to `folder`.
    static func shell(_ script: String, _ folder: URL) throws {
        let result = try CLI.runTool("/bin/sh", ["-c", script, "sh", folder.path])
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// A file name with the byte 0xE9 (é in Latin-1) runs like any other; its name is written
    /// with the byte escaped as \xE9 (and, in such a name, a backslash as \\) in every output.
    /// A name in UTF-8 is written as it is, backslash and all.
    @Test func aNameThatIsNotUTF8RunsLikeAnyOther() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces")
        try Self.shell(#"mkdir "$1/traces" && cp Traces/3g/3g_1.csv "$1/traces/$(printf 'caf\351_1.csv')" && cp Traces/3g/3g_2.csv "$1/traces/back\\slash.csv" && cp Traces/3g/3g_3.csv "$1/traces/$(printf 'x\351\\y.csv')""#, folder)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", traces.path, "--out", out.path, "--quiet", "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        #expect(sessions.map { $0.split(separator: ",")[1] } == [#"back\slash"#, #"caf\xE9_1"#, #"x\xE9\\y"#])

        // The same numbers as the file under a plain name, and run.json records its path and hash.
        let plain = folder.appendingPathComponent("plain")
        try Self.shell(#"mkdir "$1/plain" && cp Traces/3g/3g_1.csv "$1/plain/cafe_1.csv""#, folder)
        let reference = folder.appendingPathComponent("reference")
        let again = try CLI.run(["compare", "--strategies", "conservative", "--traces", plain.path, "--out", reference.path, "--quiet"])
        #expect(again.status == 0)
        // Every cell but the name and the seed, which is derived from the name.
        func cells(_ row: Substring?) -> [Substring] {
            var cells = row?.split(separator: ",", omittingEmptySubsequences: false) ?? []
            cells.remove(at: 13)
            cells.remove(at: 1)
            return cells
        }
        let row = sessions.first { $0.contains(#"caf\xE9_1"#) }
        let referenceRow = try CLI.read(reference.appendingPathComponent("sessions.csv")).split(separator: "\n").last
        #expect(cells(row) == cells(referenceRow))
        let manifest = try CLI.read(out.appendingPathComponent("run.json"))
        #expect(manifest.contains(#""path" : "\#(traces.path)/caf\\xE9_1.csv""#))
        #expect(manifest.contains("e71f93b501310daa96e34f73a70a698e01da7c1099f170978a3bced76ff867f3"))

        let info = try CLI.run(["traces", "info", traces.path, "--csv"])
        #expect(info.status == 0)
        #expect(info.stdout.contains(#"caf\xE9_1,300.0"#))
    }

    /// Two files whose trace names collide are refused with one line naming both files.
    @Test func collidingTraceNamesNameBothFiles() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.shell(#"mkdir "$1/traces" && cp Traces/3g/3g_1.csv "$1/traces/t.csv" && cp Traces/3g/3g_1.csv "$1/traces/t.json""#, folder)
        let traces = folder.appendingPathComponent("traces")
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", traces.path, "--out", out.path, "--quiet"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.stderr.contains("\(traces.path)/t.csv") && result.stderr.contains("\(traces.path)/t.json") && result.stderr.contains("'traces/t'"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A FIFO named as a trace used to block the run until something wrote to it; inside a
    /// folder it is skipped.
    @Test(arguments: [["compare", "--strategies", "conservative", "--quiet", "--traces"], ["run", "--trace"], ["traces", "info"]])
    func aFIFOIsRefusedWithOneLine(command: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.shell(#"mkfifo "$1/pipe.csv""#, folder)
        let fifo = folder.appendingPathComponent("pipe.csv")
        let out = folder.appendingPathComponent("results")
        let extra = command[0] == "compare" ? ["--out", out.path] : []
        let result = try CLI.runTool("/usr/bin/timeout", ["20", CLI.binary.path] + command + [fifo.path] + extra)
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(fifo.path): is not a regular file (a FIFO, socket or device); traces are read from files\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.path))

        try Self.shell(#"cp Traces/3g/3g_1.csv "$1/3g_1.csv""#, folder)
        let inFolder = try CLI.runTool("/usr/bin/timeout", ["20", CLI.binary.path, "traces", "info", folder.path, "--csv"])
        #expect(inFolder.status == 0)
        #expect(inFolder.stdout.contains("3g_1,300.0") && !inFolder.stdout.contains("pipe"))
    }
}
