import ABRLab
import Foundation
import Testing
import TestSupport

/// Replays a run's `dashjs-records.jsonl` through dash.js 5.1.1's own code (replay.mjs under Node) and compares
/// it record by record two ways: abrlab's answer, which each record carries under `"abrlab"`, with dash.js's
/// (the chosen index; at an abandonment check, whether to abandon), and the Swift replayer's whole output (each
/// rule's proposal, the combination, BOLA's delay, the throughput estimates) with dash.js's, field by field.
struct DashJSRecordsCheck {
    private(set) var tally = DashJSReference.Tally()
    /// Records whose answer differs from dash.js's, or whose line is not what the check expects.
    private(set) var differences: [String] = []
    /// Quality decisions by rule set (the session's name up to `@`).
    private(set) var decisions: [String: Int] = [:]
    private(set) var abandonmentChecks = 0
    private(set) var abandonments = 0
    /// Catch-up evaluations (live), and those where dash.js set a new rate or sought to the live edge.
    private(set) var catchups = 0
    private(set) var rateChanges = 0
    private(set) var seeksToLive = 0

    mutating func check(_ records: URL) throws {
        let text = try String(contentsOf: records, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let expected = try DashJSReference.replayWithNode(records)
        guard expected.count == lines.count else {
            differences.append("\(records.lastPathComponent): \(expected.count) lines from node, \(lines.count) records")
            return
        }
        for (index, (line, nodeLine)) in zip(lines, expected).enumerated() {
            let node = try DashJSReference.Tally.parse(nodeLine)
            guard node["error"] == nil, let answer = Self.answer(line) else {
                differences.append("line \(index + 1): \(nodeLine)")
                continue
            }
            let session = node["session"] as? String ?? ""
            switch node["kind"] as? String {
            case "quality":
                decisions[String(session.prefix { $0 != "@" }), default: 0] += 1
                if !DashJSReference.Tally.equal(answer["chosenIndex"] as Any, node["chosenIndex"] as Any) {
                    differences.append("line \(index + 1) (\(session)): chosen index \(answer["chosenIndex"] ?? "none"), dash.js \(node["chosenIndex"] ?? "none")")
                }
            case "abandon":
                abandonmentChecks += 1
                if node["abandon"] as? Bool == true { abandonments += 1 }
                if !DashJSReference.Tally.equal(answer["abandon"] as Any, node["abandon"] as Any)
                    || !DashJSReference.Tally.equal(answer["chosenIndex"] as Any, node["chosenIndex"] as Any) {
                    differences.append("line \(index + 1) (\(session)): abandonment \(answer), dash.js \(nodeLine)")
                }
            case "catchup":
                catchups += 1
                if !(node["newRate"] is NSNull) { rateChanges += 1 }
                if node["seekToLive"] as? Bool == true { seeksToLive += 1 }
                if !DashJSReference.Tally.equal(answer["newRate"] as Any, node["newRate"] as Any) {
                    differences.append("line \(index + 1) (\(session)): new rate \(answer["newRate"] ?? "none"), dash.js \(node["newRate"] ?? "none")")
                }
            default:
                differences.append("line \(index + 1): unexpected kind \(node["kind"] ?? "none")")
            }
        }
        let swift = DashJSReplayer.replay(text: text, file: records.lastPathComponent)
        try tally.compare(expected: expected, actual: swift.lines, seed: 0)
    }

    /// The record's `"abrlab"` member, its last: found from the end, so the long rest of the line is not parsed.
    private static func answer(_ line: Substring) -> [String: Any]? {
        guard let key = line.range(of: ",\"abrlab\":", options: .backwards), line.hasSuffix("}") else { return nil }
        return try? DashJSReference.Tally.parse(String(line[key.upperBound ..< line.index(before: line.endIndex)]))
    }

    var summary: String {
        let sets = decisions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let live = catchups > 0 ? ", \(catchups) catch-up evaluations, \(rateChanges) rate changes, \(seeksToLive) seeks to live" : ""
        return "decisions (\(sets)), \(abandonmentChecks) abandonment checks, \(abandonments) abandonments\(live); replayer: \(tally.summary)"
    }

    /// What a test requires of a check: no difference of answers, none of the replayer's output, no refusal.
    func expectAllEqual(_ label: String) {
        #expect(differences.isEmpty, "\(label): \(differences.count) answers differ; first: \(differences.prefix(3).joined(separator: "\n"))")
        #expect(tally.mismatches.isEmpty, "\(label): \(tally.mismatches.count) differences; first: \(tally.mismatches.prefix(3).joined(separator: "\n"))")
        #expect(tally.refusals.isEmpty, "\(label): \(tally.refusals)")
    }
}
