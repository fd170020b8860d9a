import Foundation
import Testing

/// How compare ranks: failures, ties, --rank-by, the JSON table.
@Suite struct CompareRankingTests {
    /// Plays the top level and crashes at segment 40 on six of the twelve default traces.
    static let crashy = """
        local crashing = { ["3g_1"] = true, ["3g_2"] = true, ["4g_1"] = true, ["4g_2"] = true, lossy_1 = true, lossy_2 = true }
        local crashes = false
        return {
          setup = function(session) crashes = crashing[session.trace] == true end,
          choose = function(ctx)
            if crashes and ctx.segment_index == 40 then error("crashed at segment 40") end
            return ctx.level_count
          end,
        }
        """

    static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func csv(_ url: URL) throws -> [[String: String]] {
        let lines = try CLI.read(url).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test func aStrategyThatCrashesOnSomeTracesRanksLastAsIncompleteEverywhere() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("crashy.lua")
        try Self.crashy.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run([
            "compare", "--strategies", script.path, "Strategies/rb.lua", "conservative", "--traces", "Traces/default",
            "--video", "Traces/video.json", "--baseline", "rb", "--out", out.path,
        ])
        // Failed sessions make the exit status 1, yet every file is written.
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: 6 session(s) failed; see the error column of sessions.csv\n")

        // The table: crashy is listed after the ranked strategies, unranked, with its failures.
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "ranked by mean session QoE on the 6 of 12 traces every strategy completed")
        #expect(lines[2].hasPrefix("1  rb ") || lines[2].hasPrefix("1  conservative "))
        #expect(lines[3].hasPrefix("2  "))
        #expect(lines[4].hasPrefix("incomplete, not ranked"))
        #expect(lines[5].hasPrefix("-  crashy") && lines[5].contains("6 (6 FAILED)"), "\(lines[5])")
        #expect(result.stdout.contains("crashy: 6 of 12 session(s) failed: "))
        let pair = try #require(lines.first { $0.hasPrefix("crashy (incomplete)") })
        #expect(pair.split(separator: " ", omittingEmptySubsequences: true)[2] == "6", "pairs only where both completed: \(pair)")

        // summary.csv: crashy last, no rank, complete false, its failures and its pair count.
        let summary = try Self.csv(out.appendingPathComponent("summary.csv"))
        #expect(summary.map { $0["strategy"] } == [summary[0]["strategy"], summary[1]["strategy"], "crashy"])
        #expect(summary.map { $0["rank"] } == ["1", "2", ""])
        #expect(summary[2]["complete"] == "false")
        #expect(summary[2]["failures"] == "6")
        #expect(summary[2]["pairs"] == "6")
        #expect(summary.allSatisfy { $0["compared_traces"] == "6" })

        // ranked.json: the same split.
        let ranked = try Self.json(out.appendingPathComponent("ranked.json"))
        #expect((ranked["ranked"] as? [[String: Any]])?.count == 2)
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["strategy"] as? String == "crashy")
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["failures"] as? Int == 6)
        #expect(ranked["compared_traces"] as? Int == 6)
    }

    @Test func identicalSessionsGetIdenticalIntervalsAndShareARank() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "Strategies/bba.lua", "bba-native", "conservative", "--traces", "Traces/default",
            "--video", "Traces/video.json", "--baseline", "conservative", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try Self.csv(out.appendingPathComponent("summary.csv"))
        let bba = try #require(summary.first { $0["strategy"] == "bba" })
        let native = try #require(summary.first { $0["strategy"] == "bba-native" })
        for column in ["rank", "qoe_total_mean", "qoe_total_ci_low", "qoe_total_ci_high", "qoe_diff_ci_low", "qoe_diff_ci_high"] {
            #expect(bba[column] == native[column], "\(column)")
        }
        #expect(bba["rank"] == "1")
        #expect(summary.first { $0["strategy"] == "conservative" }?["rank"] == "3")
    }

    @Test func rankByMedianAndTheTableAsJSON() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default", "--video", "Traces/video.json",
            "--rank-by", "median", "--table", "json", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // stdout is exactly ranked.json.
        #expect(result.stdout == (try CLI.read(out.appendingPathComponent("ranked.json"))))
        let table = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(table["rank_by"] as? String == "median")
        let ranked = try #require(table["ranked"] as? [[String: Any]])
        let medians = ranked.compactMap { $0["qoe_total_median"] as? Double }
        #expect(medians == medians.sorted(by: >))
        #expect(ranked.map { $0["rank"] as? Int } == [1, 2])
    }

    @Test(arguments: [
        (["--rank-by", "best"], "abrlab: --rank-by: 'best' is not mean or median\n"),
        (["--table", "xml"], "abrlab: --table: 'xml' is not text or json\n"),
    ])
    func badRankingOptionsGetOneLine(arguments: [String], message: String) throws {
        let out = try CLI.temporaryFolder().appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default", "--out", out.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
