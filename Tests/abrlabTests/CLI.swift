import Foundation
import Testing
import TestSupport
@testable import abrlab

/// Runs abrlab's command lines, in process (``Abrlab/execute(_:)`` with its output captured) or
/// as the binary built next to the test bundle, and compares output with golden files. Set
/// `ABRLAB_UPDATE_GOLDEN=1` to rewrite the golden files from the current output.
enum CLI {
    static let packageRoot = PackageRoot.url
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("abrlab").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("abrlab")
    }

    /// Runs abrlab with `arguments` from the package root (or `directory`): in process when
    /// nothing process-wide differs from this one (no extra environment, the package root as
    /// working directory, no shard variables set), else as the binary.
    static func run(_ arguments: [String], environment extra: [String: String] = [:], directory: URL = packageRoot) throws -> Output {
        guard extra.isEmpty, directory == packageRoot, runsInProcess else { return try launch(arguments, environment: extra, directory: directory) }
        let (status, stdout, stderr) = Console.capturing { Abrlab.execute(arguments) }
        return Output(status: status, stdout: stdout, stderr: stderr)
    }

    /// Runs the `abrlab` binary with `arguments` from the package root (or `directory`): what a
    /// user runs, for the golden files of the help texts and for what only a process shows.
    static func launch(_ arguments: [String], environment extra: [String: String] = [:], directory: URL = packageRoot) throws -> Output {
        try runTool(binary.path, arguments, environment: extra, directory: directory)
    }

    /// Whether this process can stand in for a launched one: it runs from the package root with
    /// no shard variables, and help is laid out for 100 columns, as a launch sets them.
    private static let runsInProcess: Bool = {
        setenv("COLUMNS", "100", 1)
        let environment = ProcessInfo.processInfo.environment
        let shardVariables = ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX"]
        return FileManager.default.currentDirectoryPath == packageRoot.path
            && !shardVariables.contains { environment[$0] != nil } && environment["ABRLAB_HOME"] == nil
    }()

    /// Runs any program with `arguments` from the package root (or `directory`), `extra` added
    /// to its environment.
    static func runTool(
        _ path: String, _ arguments: [String], environment extra: [String: String] = [:], directory: URL = packageRoot
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "100"
        for variable in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX"] {
            environment[variable] = nil
        }
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    /// Checks `text` against `Golden/<name>`.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = goldenFolder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ABRLAB_UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }

    /// Runs `arguments` into two fresh folders, with `--jobs 1` and with `--jobs` `jobs`, expects
    /// both to succeed with byte-identical `files`, and hands the first run's output and folder
    /// to `body` before removing both folders.
    static func acrossJobs(
        _ arguments: [String], jobs: Int, files: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (Output, URL) throws -> Void
    ) throws {
        let one = try temporaryFolder()
        let other = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: other) }
        let first = try run(arguments + ["--out", one.path, "--jobs", "1"])
        let second = try run(arguments + ["--out", other.path, "--jobs", "\(jobs)"])
        #expect(first.status == 0, "\(first.stderr)", sourceLocation: sourceLocation)
        #expect(second.status == 0, "\(second.stderr)", sourceLocation: sourceLocation)
        for file in files {
            let a = try read(one.appendingPathComponent(file))
            #expect(a == (try read(other.appendingPathComponent(file))), "\(file) depends on --jobs", sourceLocation: sourceLocation)
        }
        try body(first, one)
    }

    /// A dataset cache of a test's own: a temporary folder, the cache inside it, and the
    /// environment that points abrlab at that cache.
    static func datasetCache() throws -> (folder: URL, cache: URL, environment: [String: String]) {
        let folder = try temporaryFolder()
        let cache = folder.appendingPathComponent("cache")
        return (folder, cache, ["ABRLAB_DATASETS": cache.path])
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Forty generated 4G traces of 120 s in `folder`/traces: enough traces for a run to be
    /// killed halfway and resumed.
    static func generatedTraces(in folder: URL) throws -> URL {
        let traces = folder.appendingPathComponent("traces")
        let generated = try run(["traces", "generate", "--preset", "4g", "--count", "40", "--out-dir", traces.path, "--duration-s", "120"])
        #expect(generated.status == 0, "\(generated.stderr)")
        return traces
    }

    static func read(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }
}
