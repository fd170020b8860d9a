import Foundation
import Testing

/// dash.js 5.1.1's replay harness (../shared/reference/dashjs/replay.mjs, under Node) for the tests that compare
/// abrlab's dash.js model with it, and the field-by-field comparison of their outputs.
public enum DashJSReference {
    public static let folder = PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/reference/dashjs")
    public static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public static let seeds = [20_260_101, 7, 53]

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("replay.mjs").path) && nodeIsRecentEnough
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    /// replay.mjs registers a module hook, which needs Node 20.6 or later.
    public static let nodeIsRecentEnough: Bool = {
        guard let node else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["-e", "const [a, b] = process.versions.node.split('.').map(Number); process.exit(a > 20 || (a === 20 && b >= 6) ? 0 : 1)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    public static var skipMessage: Comment {
        Comment(rawValue: "dash.js reference needs ../shared/reference/dashjs (relative to the package root), Node 20.6 or "
            + "later (Debian's nodejs, scripts/ensure-deps --dashjs) and python3; skipped")
    }

    public static func run(_ executable: String, _ arguments: [String], stdout: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        FileManager.default.createFile(atPath: stdout.path, contents: nil)
        let handle = try FileHandle(forWritingTo: stdout)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("\(executable) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }

    public static func generate(seed: Int, into fixture: FixtureDirectory) throws -> URL {
        let records = fixture.url.appendingPathComponent("records-\(seed).jsonl")
        try run("/usr/bin/python3", ["selfcheck/gen.py", String(seed)], stdout: records)
        return records
    }

    public static func replayWithNode(_ records: URL) throws -> [String] {
        let out = records.deletingPathExtension().appendingPathExtension("node.jsonl")
        try run(node!, ["replay.mjs", records.path], stdout: out)
        return try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Field-by-field comparison of the two outputs, with the count of compared records per rule.
    public struct Tally {
        public init() {}

        public var compared: [String: Int] = [:]
        public var refusals: [String: Int] = [:]
        public var mismatches: [String] = []
        public var records = 0

        public var summary: String {
            let rules = compared.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(records) records equal (\(rules)); refused: \(refusals)"
        }

        public mutating func compare(expected: [String], actual: [String], seed: Int) throws {
            guard expected.count == actual.count else {
                mismatches.append("seed \(seed): \(expected.count) lines from node, \(actual.count) from Swift")
                return
            }
            for (index, (nodeLine, swiftLine)) in zip(expected, actual).enumerated() {
                let ours = try Self.parse(swiftLine)
                let theirs = Self.withoutLogText(try Self.parse(nodeLine))
                if let error = ours["error"] as? String {
                    let reason = error.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
                    refusals[reason.isEmpty ? error : reason, default: 0] += 1
                    continue
                }
                guard Self.equal(ours, theirs) else {
                    mismatches.append("seed \(seed) line \(index + 1):\n node  \(nodeLine)\n swift \(swiftLine)")
                    continue
                }
                records += 1
                let kind = theirs["kind"] as? String ?? ""
                if kind == "catchup" { compared["catchup", default: 0] += 1 }
                for rule in (theirs["rules"] as? [String: Any] ?? [:]).keys { compared[rule, default: 0] += 1 }
            }
        }

        public static func parse(_ line: String) throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }

        /// dash.js's reasons (log text of its rules) and log lines are not decisions and are left out.
        public static func withoutLogText(_ value: [String: Any]) -> [String: Any] {
            var copy = value
            copy.removeValue(forKey: "reason")
            copy.removeValue(forKey: "log")
            for (key, member) in copy {
                if let object = member as? [String: Any] { copy[key] = withoutLogText(object) }
            }
            return copy
        }

        public static func equal(_ a: Any, _ b: Any) -> Bool {
            switch (a, b) {
            case (let a as [String: Any], let b as [String: Any]):
                return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
            case (let a as NSNumber, let b as NSNumber):
                // Booleans and numbers stay apart; numbers compare as doubles, bit for bit.
                let aBool = String(cString: a.objCType) == "c"
                let bBool = String(cString: b.objCType) == "c"
                return aBool == bBool && a.doubleValue == b.doubleValue
            case (let a as String, let b as String): return a == b
            case (is NSNull, is NSNull): return true
            default: return false
            }
        }
    }
}
