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
        var check = DashJSRecordsCheck()
        try check.check(records)
        print("dashjs records: \(check.summary)")
        check.expectAllEqual("compare")
        // Every rule set decided every segment after the first on every trace.
        for ruleSet in Self.ruleSets { #expect(check.decisions[ruleSet] == traces.count * 15, "\(ruleSet): \(check.decisions[ruleSet] ?? 0)") }
        #expect(check.abandonmentChecks > 0)
        for rule in ["BolaRule", "ThroughputRule", "InsufficientBufferRule", "SwitchHistoryRule", "AbandonRequestsRule", "L2ARule", "LoLPRule"] {
            #expect(check.tally.compared[rule, default: 0] > 0, "\(rule) never ran")
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
