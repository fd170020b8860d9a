import Foundation

extension CLI {
    struct MeasuredOutput {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The process's peak resident memory (`VmHWM`) once its work was done, bytes.
        let peakBytes: Int
    }

    /// Runs abrlab from the package root and measures its peak memory, for a command whose
    /// last act is to print more than a pipe holds (`compare --table json` over many rows):
    /// while it waits for the pipe to drain, everything else is done and `/proc` still shows
    /// its high-water mark. (`wait4`'s `ru_maxrss` will not do: a child counts the memory its
    /// parent, the test process, had when it was spawned.)
    static func runMeasuringMemory(_ arguments: [String]) throws -> MeasuredOutput {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let first = out.fileHandleForReading.availableData
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let rest = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kilobytes = line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
        return MeasuredOutput(
            status: process.terminationStatus, stdout: String(decoding: first + rest, as: UTF8.self),
            stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "", peakBytes: kilobytes * 1024
        )
    }
}
