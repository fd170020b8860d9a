import ABRLab
import Foundation
import Testing
import TestSupport

/// `compare --profile dashjs --dashjs-records` on shipped traces, for every dash.js rule set: dash.js 5.1.1's own code
/// (replay.mjs under Node) replays the records abrlab wrote and must reach abrlab's answer at every decision and
/// abandonment check, and every rule's proposal of it must equal the Swift model's.
@Suite(.tags(.cli, .reference), .selectedByTags, .enabled(if: DashJSReference.isAvailable, DashJSReference.skipMessage))
struct DashJSRecordsTests {
    static let ruleSets = ["dashjs", "dashjs/bola", "dashjs/throughput", "dashjs/l2a", "dashjs/lolp"]

    @Test func everyDecisionOfACompareEqualsDashJS() throws {
        let fixture = try FixtureDirectory()
        let out = fixture.url.appendingPathComponent("out")
        let traces = ["3g_1", "4g_2", "broadband_1"].map { "Traces/default/\($0).csv" }
        let run = try CLI.run(["compare", "--profile", "dashjs", "--strategies"] + Self.ruleSets
            + ["--traces"] + traces + ["--segments", "16", "--dashjs-records", "--out", out.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = out.appendingPathComponent("dashjs-records.jsonl")
        let manifest = try DashJSReference.Tally.parse(String(contentsOf: out.appendingPathComponent("run.json"), encoding: .utf8))
        #expect((manifest["files"] as? [String])?.contains("dashjs-records.jsonl") == true, "run.json lists the records")
        let lines = try String(contentsOf: records, encoding: .utf8).split(separator: "\n").map(String.init)
        let expected = try DashJSReference.replayWithNode(records)
        try #require(expected.count == lines.count)

        // abrlab's own answer, carried by each record, is dash.js's.
        var decisions: [String: Int] = [:]
        var abandonments = 0
        for (index, (line, nodeLine)) in zip(lines, expected).enumerated() {
            let record = try DashJSReference.Tally.parse(line)
            let node = try DashJSReference.Tally.parse(nodeLine)
            #expect(node["error"] == nil, "line \(index + 1): \(nodeLine)")
            let answer = try #require(record["abrlab"] as? [String: Any])
            let session = try #require(record["session"] as? String)
            switch record["kind"] as? String {
            case "quality":
                decisions[String(session.prefix { $0 != "@" }), default: 0] += 1
                #expect(DashJSReference.Tally.equal(answer["chosenIndex"] as Any, node["chosenIndex"] as Any), "line \(index + 1)")
            case "abandon":
                #expect(DashJSReference.Tally.equal(answer["abandon"] as Any, node["abandon"] as Any), "line \(index + 1)")
                #expect(DashJSReference.Tally.equal(answer["chosenIndex"] as Any, node["chosenIndex"] as Any), "line \(index + 1)")
                if node["abandon"] as? Bool == true { abandonments += 1 }
            default:
                Issue.record("line \(index + 1): unexpected kind \(record["kind"] ?? "none")")
            }
        }
        // Every rule set decided every segment after the first on every trace.
        for ruleSet in Self.ruleSets { #expect(decisions[ruleSet] == traces.count * 15, "\(ruleSet): \(decisions[ruleSet] ?? 0)") }

        // Each rule's proposal, the combination, BOLA's delay and the throughput estimates: the whole output, field by field.
        let swift = DashJSReplayer.replay(text: lines.joined(separator: "\n"), file: records.lastPathComponent)
        var tally = DashJSReference.Tally()
        try tally.compare(expected: expected, actual: swift.lines, seed: 0)
        print("dashjs records: \(tally.summary); \(abandonments) abandonments")
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) differences; first: \(tally.mismatches.prefix(3).joined(separator: "\n"))")
        #expect(tally.refusals.isEmpty, "\(tally.refusals)")
        for rule in ["BolaRule", "ThroughputRule", "InsufficientBufferRule", "SwitchHistoryRule", "AbandonRequestsRule", "L2ARule", "LoLPRule"] {
            #expect(tally.compared[rule, default: 0] > 0, "\(rule) never ran")
        }
    }

    @Test func recordsNeedADashJSStrategyAndAWholeRunAndTheProfileNoReplacement() throws {
        let fixture = try FixtureDirectory()
        let out = fixture.url.appendingPathComponent("out").path
        let none = try CLI.run(["compare", "--profile", "dashjs", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv",
                                "--dashjs-records", "--out", out, "--quiet"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("--dashjs-records: needs a dashjs strategy"), "\(none.stderr)")
        let shard = try CLI.run(["compare", "--profile", "dashjs", "--strategies", "dashjs", "--traces", "Traces/default/3g_1.csv",
                                 "--dashjs-records", "--shard", "1/2", "--out", out, "--quiet"])
        #expect(shard.status != 0)
        #expect(shard.stderr.contains("records are written by an unsharded run"), "\(shard.stderr)")
        let replace = try CLI.run(["compare", "--profile", "dashjs", "--strategies", "dashjs", "--traces", "Traces/default/3g_1.csv",
                                   "--replace", "left", "--out", out, "--quiet"])
        #expect(replace.status != 0)
        #expect(replace.stderr.contains("--replace: replaces buffered segments, which dash.js does not (profile dashjs)"), "\(replace.stderr)")
    }
}
