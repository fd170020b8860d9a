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

extension DashJSReference {
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

}
