import ABRLab
import Foundation
import Testing
import TestSupport

/// The dash.js rule sets on a low-latency live stream (`--profile live --video twitch-ll`, the Twitch challenge's
/// patterns): dash.js 5.1.1's own code (replay.mjs under Node) replays the records abrlab wrote, its quality
/// decisions and its catch-up controller's rate at every timeupdate, and must reach abrlab's answer at each, with
/// every rule's proposal equal to the Swift model's. Whole sessions on all of `Traces/twitch-ll`, a few seconds.
@Suite(.tags(.cli, .reference), .selectedByTags, .enabled(if: DashJSReference.isAvailable, DashJSReference.skipMessage))
struct DashJSLiveRecordsTests {
    static let ruleSets = ["dashjs", "dashjs/bola", "dashjs/throughput", "dashjs/l2a", "dashjs/lolp"]

    /// Plays the rule sets live with `options`, checks every record against dash.js, and returns the check and the
    /// records' first line.
    private func check(_ options: [String], traces: [String], profile: String = "live") throws -> (DashJSRecordsCheck, [String: Any]) {
        let fixture = try FixtureDirectory()
        let out = fixture.url.appendingPathComponent("out")
        let run = try CLI.run(["compare", "--profile", profile, "--video", "twitch-ll", "--qoe", "nqoe", "--strategies"] + Self.ruleSets
            + ["--traces"] + traces + options + ["--dashjs-records", "--out", out.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = out.appendingPathComponent("dashjs-records.jsonl")
        var check = DashJSRecordsCheck()
        try check.check(records)
        let text = try String(contentsOf: records, encoding: .utf8)
        let first = try DashJSReference.Tally.parse(String(text.prefix { $0 != "\n" }))
        return (check, first)
    }

    @Test func everyDecisionAndCatchupOnTwitchLLEqualsDashJS() throws {
        let (check, first) = try check([], traces: ["Traces/twitch-ll"])
        print("dashjs live records: \(check.summary)")
        check.expectAllEqual("live")
        // A low-latency dynamic stream at the profile's target latency (1.5 s).
        #expect(first["isDynamic"] as? Bool == true)
        #expect(first["lowLatencyMode"] as? Bool == true)
        #expect(first["liveDelay"] as? Double == 1.5)
        for ruleSet in Self.ruleSets { #expect(check.decisions[ruleSet, default: 0] > 100, "\(ruleSet): \(check.decisions[ruleSet] ?? 0)") }
        // dash.js's catch-up ran at every timeupdate and changed the rate the sessions played at; the live engine has
        // no progress checks, so no abandonment record; no session drifted far enough to seek.
        #expect(check.catchups > 1000)
        #expect(check.rateChanges > 100)
        #expect(check.abandonmentChecks == 0)
        #expect(check.seeksToLive == 0)
        for rule in ["BolaRule", "ThroughputRule", "SwitchHistoryRule", "L2ARule", "LoLPRule"] {
            #expect(check.tally.compared[rule, default: 0] > 0, "\(rule) never ran")
        }
    }

    @Test func aLongerTargetAndAWarmupStayEqual() throws {
        let traces = ["cascade", "spike"].map { "Traces/twitch-ll/\($0).csv" }
        let (check, first) = try check(["--target-latency-s", "3", "--warmup-s", "10"], traces: traces)
        print("dashjs live records, target 3 s: \(check.summary)")
        check.expectAllEqual("target 3 s")
        #expect(first["liveDelay"] as? Double == 3)
        #expect(check.catchups > 0 && check.rateChanges > 0)
    }

    /// The challenge's recipe: a 1 s target and a 10 s warm-up; its `--catchup dashjs3` is the engine's, which the
    /// dashjs strategies replace with dash.js 5.1.1's.
    @Test func theTwitchChallengeRecipeStaysEqual() throws {
        let (check, first) = try check([], traces: ["Traces/twitch-ll"], profile: "twitch-challenge")
        print("dashjs live records, twitch-challenge: \(check.summary)")
        check.expectAllEqual("twitch-challenge")
        #expect(first["liveDelay"] as? Double == 1)
        #expect(check.catchups > 0 && check.rateChanges > 0)
    }

    /// After a 15 s outage the latency is more than maxDrift (12 s) over the target: dash.js's catch-up seeks to the
    /// live edge, the engine seeks when the segment under way has arrived, and the records say so (PLAYBACK_SEEKING,
    /// PLAYBACK_SEEKED), every answer still dash.js's.
    @Test func aSeekToTheLiveEdgeIsPlayed() throws {
        let fixture = try FixtureDirectory()
        let trace = try fixture.write("outage.csv", "duration_s,bandwidth_bps\n10,1000000\n15,1000\n30,1000000\n")
        let (check, _) = try check([], traces: [trace.path])
        print("dashjs live records, outage: \(check.summary)")
        check.expectAllEqual("outage")
        #expect(check.seeksToLive == Self.ruleSets.count, "one seek per session")
        let out = fixture.url.appendingPathComponent("seek")
        let run = try CLI.run(["compare", "--profile", "live", "--video", "twitch-ll", "--strategies", "dashjs",
                               "--traces", trace.path, "--out", out.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        // Back at the target latency after the seek: the last row's latency is the target's, give or take catch-up.
        let rows = try String(contentsOf: out.appendingPathComponent("segments.csv"), encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",")
        let latency = try #require(header.firstIndex(of: "live_latency_s"))
        let latencies = rows.dropFirst().compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[latency]) }
        #expect(latencies.contains { $0 > 13.5 }, "the outage drove the latency past maxDrift")
        #expect(try #require(latencies.last) < 2, "\(latencies.suffix(3))")
    }

    @Test func theRateDashJSSetsIsTheRateTheSessionPlaysAt() throws {
        let fixture = try FixtureDirectory()
        let out = fixture.url.appendingPathComponent("out")
        let run = try CLI.run(["compare", "--profile", "live", "--video", "twitch-ll", "--strategies", "dashjs",
                               "--traces", "Traces/twitch-ll/cascade.csv", "--dashjs-records", "--out", out.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        // The last rate catch-up set before each decision is the rate that decision's record says the element plays at.
        let lines = try String(contentsOf: out.appendingPathComponent("dashjs-records.jsonl"), encoding: .utf8).split(separator: "\n")
        var rate = 1.0
        var decisions = 0
        for line in lines {
            let record = try DashJSReference.Tally.parse(String(line))
            let answer = record["abrlab"] as? [String: Any] ?? [:]
            if record["kind"] as? String == "quality" {
                #expect(record["playbackRate"] as? Double == rate, "seq \(record["seq"] ?? "?")")
                decisions += 1
            }
            if let newRate = answer["newRate"] as? Double { rate = newRate }
        }
        #expect(decisions > 100)
    }
}
