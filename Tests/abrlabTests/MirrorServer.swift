import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `Fixtures/mirror_server.py` serving a dataset mirror on 127.0.0.1 for the offline fetch tests,
/// stopped when the value is stopped (or after 120 s on its own).
final class MirrorServer {
    let url: URL
    let log: URL
    private let process: Process

    /// Serves `root`; the first response for a path ending in `slow` is sent slowly; without
    /// `ranges` every response is the whole file; each of `faults` (`endless`, `long`, `trickle`,
    /// `redirect`, `refuse`, see the script) spoils every answer for paths ending in its name.
    init(root: URL, slow: String? = nil, ranges: Bool = true, faults: [(mode: String, name: String)] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/mirror_server.py")
        log = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-mirror-\(UUID().uuidString).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", script.path, root.path, log.path]
        if let slow { arguments.append(slow) }
        if !ranges { arguments.append("--no-ranges") }
        for fault in faults { arguments += ["--fault", "\(fault.mode):\(fault.name)"] }
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw MirrorServerError(output: String(decoding: line, as: UTF8.self))
        }
        url = URL(string: "http://127.0.0.1:\(port)/")!
    }

    /// The requests served so far, `PATH RANGE` each (`-` for none).
    var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// SIGKILL: a child may inherit a signal mask that blocks SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}

struct MirrorServerError: Error, CustomStringConvertible {
    let output: String
    var description: String { "the mirror server did not say its port: '\(output)'" }
}
