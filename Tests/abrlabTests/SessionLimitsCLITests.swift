import Foundation
import Testing
import TestSupport

/// Hostile traces through the CLI: a session over a trace too slow or too late to finish ends at
/// the documented 24 h limit with an error in its row, the other sessions complete, exit 1.
@Suite(.tags(.cli), .selectedByTags) struct SessionLimitsCLITests {
    static let profiles = ["default", "pensieve", "sabre", "live"]
    static let limitMessage = "the session ran past its limit of 86400 s of simulated time"

    /// Runs compare with `traces` (CSV bodies by trace name) beside the shipped `3g_1` and
    /// returns each session's error by trace, the exit status and stderr.
    static func compare(_ traces: [String: String], _ arguments: [String]) throws -> (errors: [String: String], status: Int32, stderr: String, seconds: Double) {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, body) in traces {
            let url = folder.appendingPathComponent(name + ".csv")
            try body.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let out = folder.appendingPathComponent("results")
        let start = Date()
        // Under `timeout`, so a run that hangs fails the test instead of stalling the suite.
        let result = try CLI.runTool("/usr/bin/timeout", ["60", CLI.binary.path,
            "compare", "--strategies", "conservative", "--traces", "Traces/3g/3g_1.csv"] + paths + ["--out", out.path, "--quiet", "--jobs", "1"] + arguments
        )
        try #require(result.status != 124, "compare ran for a minute")
        let seconds = Date().timeIntervalSince(start)
        let table = try CLI.read(out.appendingPathComponent("sessions.csv"))
        let rows = table.split(separator: "\n").map(String.init)
        let header = rows[0].split(separator: ",").map(String.init)
        let traceColumn = try #require(header.firstIndex(of: "trace"))
        let errorColumn = try #require(header.firstIndex(of: "error"))
        var errors: [String: String] = [:]
        for row in rows.dropFirst() {
            // The columns before the error hold no commas; the error's own may.
            let cells = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            errors[cells[traceColumn]] = row.contains(limitMessage) ? "time limit" : (cells[errorColumn].isEmpty ? "" : "other error")
        }
        return (errors, result.status, result.stderr, seconds)
    }

    /// `on_playback` runs at every chunk of a live session while a chunk is on its way, so
    /// through a long outage a heavy hook ran for hours; the session's budget across all its
    /// calls (1000 calls' budgets, here 1000 × 200,000 instructions) ends it with one line.
    @Test func aHeavyHookThroughAnOutageEndsAtTheSessionsBudget() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("heavy.lua")
        try """
            local M = { name = "heavy playback" }
            function M.choose(ctx) return 1 end
            function M.on_playback(playback)
              local x = 0
              for i = 1, 40000 do x = x + i end
              return nil
            end
            return M

            """.write(to: script, atomically: true, encoding: .utf8)
        let trace = folder.appendingPathComponent("outage.csv")
        try "duration_s,bandwidth_bps\n5,1228800\n1000,0\n30,1228800\n".write(to: trace, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try CLI.runTool("/usr/bin/timeout", ["120", CLI.binary.path,
            "compare", "--profile", "live", "--video", "twitch-ll", "--traces", trace.path, "--strategies", script.path,
            "--lua-instructions", "200000", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let sessions = try CLI.read(out.appendingPathComponent("sessions.csv"))
        #expect(sessions.contains(
            "\(script.path):5: on_playback exceeded the session's budget of 200000000 instructions across all its calls (1000 times the budget per call)"
        ), "\(sessions)")
    }

    @Test(arguments: profiles)
    func aTraceOfNearlyNoBandwidthEndsWithinSecondsWithAClearError(profile: String) throws {
        let run = try Self.compare(["slow": "end_s,bandwidth_bps\n1,1e-300\n2,1e-300\n"], ["--profile", profile])
        #expect(run.status == 1)
        // Warnings print whatever --quiet says: the trace's unit warning, and Pensieve's video one.
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.last == "abrlab: 1 session(s) failed; see the error column of sessions.csv")
        #expect(lines.dropLast().allSatisfy { $0.contains("warning: ") })
        #expect(run.errors == ["3g_1": "", "slow": "time limit"])
        #expect(run.seconds < 30)
    }

    /// The `pensieve` profile adds Pensieve's own 80 ms to each request and never reads the
    /// trace's latency, so its session plays.
    @Test(arguments: profiles)
    func aLatencyOf1e300SecondsEndsWithinSecondsWithAClearError(profile: String) throws {
        let run = try Self.compare(["late": "end_s,bandwidth_bps,latency_s\n1,1000000,1e300\n2,1000000,1e300\n"], ["--profile", profile])
        if profile == "pensieve" {
            #expect(run.status == 0)
            #expect(run.errors == ["3g_1": "", "late": ""])
        } else {
            #expect(run.status == 1)
            #expect(run.errors == ["3g_1": "", "late": "time limit"])
        }
        #expect(run.seconds < 30)
    }

    @Test func aBandwidthMultiplierOf1eMinus300EndsEverySessionAtTheLimit() throws {
        let run = try Self.compare([:], ["--profile", "sabre", "--bandwidth-multiplier", "1e-300"])
        #expect(run.status == 1)
        #expect(run.errors == ["3g_1": "time limit"])
        #expect(run.seconds < 30)
    }
}
