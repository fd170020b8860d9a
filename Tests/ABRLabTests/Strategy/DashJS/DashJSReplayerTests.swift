import ABRLab
import Foundation
import Testing
import TestSupport

/// dash.js 5.1.1's own code (replay.mjs under Node, in ../shared/reference/dashjs) and the Swift model replay the same
/// synthetic decision records (selfcheck/gen.py, seeded); every output field must be equal.
@Suite(.tags(.core, .reference), .selectedByTags, .enabled(if: DashJSReference.isAvailable, DashJSReference.skipMessage))
struct DashJSReplayerTests {
    @Test func everyDecisionEqualsDashJS() throws {
        let fixture = try FixtureDirectory()
        var tally = DashJSReference.Tally()
        for seed in DashJSReference.seeds {
            var records = try DashJSReference.generate(seed: seed, into: fixture)
            // gen.py draws six of the eight averaging modes; the last seed's sessions cycle through all eight.
            if seed == DashJSReference.seeds.last { records = try DashJSReference.cyclingAveragingModes(records) }
            let expected = try DashJSReference.replayWithNode(records)
            let text = try String(contentsOf: records, encoding: .utf8)
            let actual = DashJSReplayer.replay(text: text, file: records.lastPathComponent)
            try tally.compare(expected: expected, actual: actual.lines, seed: seed)
        }
        print("dash.js replay: \(tally.summary)")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) differences; first: \(tally.mismatches.prefix(5).joined(separator: "\n"))")
        // Nothing is refused, and enough of each rule is compared.
        #expect(tally.refusals.isEmpty, "\(tally.refusals)")
        for rule in ["BolaRule", "ThroughputRule", "InsufficientBufferRule", "SwitchHistoryRule", "DroppedFramesRule",
                     "AbandonRequestsRule", "L2ARule", "LoLPRule", "catchup"] {
            #expect(tally.compared[rule, default: 0] >= 20, "\(rule): only \(tally.compared[rule, default: 0]) compared")
        }
    }
}

enum DashJSReference {
    static let folder = PackageRoot.url.deletingLastPathComponent().appendingPathComponent("shared/reference/dashjs")
    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let seeds = [20_260_101, 7, 53]

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("replay.mjs").path) && nodeIsRecentEnough
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    /// replay.mjs registers a module hook, which needs Node 20.6 or later.
    static let nodeIsRecentEnough: Bool = {
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

    static var skipMessage: Comment {
        Comment(rawValue: "dash.js reference needs ../shared/reference/dashjs (relative to the package root), Node 20.6 or "
            + "later (Debian's nodejs, scripts/ensure-deps --dashjs) and python3; skipped")
    }

    static func run(_ executable: String, _ arguments: [String], stdout: URL) throws {
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

    static func generate(seed: Int, into fixture: FixtureDirectory) throws -> URL {
        let records = fixture.url.appendingPathComponent("records-\(seed).jsonl")
        try run("/usr/bin/python3", ["selfcheck/gen.py", String(seed)], stdout: records)
        return records
    }

    /// The same records with each session's averaging mode replaced, session by session, by the next of all eight.
    static func cyclingAveragingModes(_ records: URL) throws -> URL {
        let modes = DashJSAveragingMode.allCases.map(\.rawValue)
        var session = -1
        var lines: [String] = []
        for line in try String(contentsOf: records, encoding: .utf8).split(separator: "\n") {
            var text = String(line)
            if let range = text.range(of: #""averageCalculationMode":"[A-Za-z]+""#, options: .regularExpression) {
                session += 1
                text.replaceSubrange(range, with: "\"averageCalculationMode\":\"\(modes[session % modes.count])\"")
            }
            lines.append(text)
        }
        let out = records.deletingPathExtension().appendingPathExtension("modes.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: out)
        return out
    }

    static func replayWithNode(_ records: URL) throws -> [String] {
        let out = records.deletingPathExtension().appendingPathExtension("node.jsonl")
        try run(node!, ["replay.mjs", records.path], stdout: out)
        return try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Field-by-field comparison of the two outputs, with the count of compared records per rule.
    struct Tally {
        var compared: [String: Int] = [:]
        var refusals: [String: Int] = [:]
        var mismatches: [String] = []
        var records = 0

        var summary: String {
            let rules = compared.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(records) records equal (\(rules)); refused: \(refusals)"
        }

        mutating func compare(expected: [String], actual: [String], seed: Int) throws {
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

        static func parse(_ line: String) throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return object
        }

        /// dash.js's reasons (log text of its rules) and log lines are not decisions and are left out.
        static func withoutLogText(_ value: [String: Any]) -> [String: Any] {
            var copy = value
            copy.removeValue(forKey: "reason")
            copy.removeValue(forKey: "log")
            for (key, member) in copy {
                if let object = member as? [String: Any] { copy[key] = withoutLogText(object) }
            }
            return copy
        }

        static func equal(_ a: Any, _ b: Any) -> Bool {
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
