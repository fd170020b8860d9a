import Foundation
import Testing
import TestSupport

/// How compare ranks: failures, ties, --rank-by, the JSON table.
@Suite(.tags(.cli), .selectedByTags) struct CompareRankingTests {
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

    /// Fails every session.
    static let dead = "return { choose = function(ctx) error('never plays') end }\n"

    /// The columns of a summary row that describe the strategy itself (not its pairing).
    static let statisticColumns = [
        "rank", "complete", "sessions", "failures", "compared_traces", "qoe_total_mean", "qoe_total_ci_low", "qoe_total_ci_high",
        "qoe_total_median", "avg_bitrate_kbps", "rebuffer_ratio", "switches", "startup_s",
    ]

    /// rb and conservative against rb on the default traces, with `extra` strategies; returns the
    /// result and summary.csv's rows.
    static func compare(_ folder: URL, _ name: String, extra: [String]) throws -> (CLI.Output, [[String: String]]) {
        let out = folder.appendingPathComponent(name)
        let result = try CLI.run([
            "compare", "--strategies"] + extra + ["Strategies/rb.lua", "conservative", "--traces", "Traces/default",
            "--video", "Traces/video.json", "--baseline", "rb", "--out", out.path,
        ])
        return (result, try csv(out.appendingPathComponent("summary.csv")))
    }

    /// What the table shows agrees with the paired comparison: every complete strategy covers
    /// all its sessions, and its gap to the baseline is the mean paired difference over as many pairs.
    static func expectGapsAgreeWithPairs(_ summary: [[String: String]], baseline: String) throws {
        let base = try #require(summary.first { $0["strategy"] == baseline })
        for row in summary where row["complete"] == "true" && row["strategy"] != baseline {
            #expect(row["pairs"] == row["sessions"] && row["compared_traces"] == row["sessions"], "\(row)")
            let gap = try #require(Double(row["qoe_total_mean"] ?? "")) - (try #require(Double(base["qoe_total_mean"] ?? "")))
            let paired = try #require(Double(row["qoe_diff_mean"] ?? ""))
            #expect(abs(gap - paired) < 1e-9 * max(1, abs(gap)), "\(row["strategy"] ?? ""): gap \(gap), paired \(paired)")
        }
        for row in summary where row["complete"] == "false" {
            // Paired only where both completed, never more than it completed.
            #expect(Int(row["pairs"] ?? "") ?? -1 <= Int(row["sessions"] ?? "") ?? 0, "\(row)")
            #expect(row["compared_traces"] == row["sessions"], "\(row)")
        }
    }

    @Test func aStrategyThatFailsOnSomeTracesIsListedOnItsOwnTracesAndShrinksNothing() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("crashy.lua")
        try Self.crashy.write(to: script, atomically: true, encoding: .utf8)
        let (alone, expected) = try Self.compare(folder, "alone", extra: [])
        #expect(alone.status == 0, "\(alone.stderr)")
        let (result, summary) = try Self.compare(folder, "results", extra: [script.path])
        // Failed sessions make the exit status 1, yet every file is written.
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: 6 session(s) failed; see the error column of sessions.csv\n")

        // rb and conservative: the numbers of the run without crashy, on all 12 traces.
        for id in ["rb", "conservative"] {
            let row = try #require(summary.first { $0["strategy"] == id })
            let before = try #require(expected.first { $0["strategy"] == id })
            for column in Self.statisticColumns + ["pairs", "wins", "ties", "losses", "qoe_diff_mean", "qoe_diff_ci_low", "qoe_diff_ci_high"] {
                #expect(row[column] == before[column], "\(id).\(column)")
            }
            #expect(row["compared_traces"] == "12")
        }
        try Self.expectGapsAgreeWithPairs(summary, baseline: "rb")

        // The table: crashy after the ranked strategies, unranked, on its 6 traces with its count.
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(printed[0].hasPrefix("profile default, QoE linear, video Traces/video.json (6 levels 300–4300 kbps, 48 segments of 4 s, 48 played), traces Traces/default"), "the table's source first")
        let lines = Array(printed.dropFirst())
        #expect(lines[0] == "ranked by mean session QoE on the 12 of 12 traces every complete strategy completed")
        #expect(lines[2].hasPrefix("1  rb ") || lines[2].hasPrefix("1  conservative "))
        #expect(lines[3].hasPrefix("2  "))
        #expect(lines[4].hasPrefix("incomplete, not ranked: failed sessions; statistics on the traces each completed"))
        #expect(lines[5].hasPrefix("-  crashy") && lines[5].contains("6/12 (6 FAILED)"), "\(lines[5])")
        #expect(result.stdout.contains("crashy: 6 of 12 session(s) failed: "))
        let pair = try #require(lines.first { $0.hasPrefix("crashy (incomplete)") })
        #expect(pair.split(separator: " ", omittingEmptySubsequences: true)[2] == "6", "pairs only where both completed: \(pair)")
        // The ranked rows of the table are those of the run without crashy.
        let aloneLines = Array(alone.stdout.split(separator: "\n").map(String.init).dropFirst())
        func cells(_ line: String) -> [Substring] { line.split(separator: " ") }
        #expect(lines[2...3].map(cells) == aloneLines[2...3].map(cells))

        // summary.csv: crashy last, no rank, complete false, its failures, its own 6 traces and its pairs.
        #expect(summary.map { $0["strategy"] } == [summary[0]["strategy"], summary[1]["strategy"], "crashy"])
        #expect(summary.map { $0["rank"] } == ["1", "2", ""])
        #expect(summary[2]["complete"] == "false")
        #expect(summary[2]["failures"] == "6")
        #expect(summary[2]["sessions"] == "6")
        #expect(summary[2]["compared_traces"] == "6")
        #expect(summary[2]["pairs"] == "6")

        // ranked.json: the same split.
        let ranked = try Self.json(folder.appendingPathComponent("results/ranked.json"))
        #expect((ranked["ranked"] as? [[String: Any]])?.count == 2)
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["strategy"] as? String == "crashy")
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["failures"] as? Int == 6)
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["compared_traces"] as? Int == 6)
        #expect(ranked["compared_traces"] as? Int == 12)
    }

    @Test func aStrategyThatFailsEverywhereLeavesTheOthersRanked() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("dead.lua")
        try Self.dead.write(to: script, atomically: true, encoding: .utf8)
        let (_, expected) = try Self.compare(folder, "alone", extra: [])
        let (result, summary) = try Self.compare(folder, "results", extra: [script.path])
        #expect(result.status == 1)
        #expect(summary.map { $0["rank"] } == ["1", "2", ""])
        for id in ["rb", "conservative"] {
            let row = try #require(summary.first { $0["strategy"] == id })
            let before = try #require(expected.first { $0["strategy"] == id })
            for column in Self.statisticColumns { #expect(row[column] == before[column], "\(id).\(column)") }
        }
        try Self.expectGapsAgreeWithPairs(summary, baseline: "rb")
        let dead = try #require(summary.last)
        #expect([dead["strategy"], dead["sessions"], dead["failures"], dead["compared_traces"], dead["qoe_total_mean"], dead["pairs"]]
            == ["dead", "0", "12", "0", "", "0"])
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(printed[0].hasPrefix("profile default, QoE linear, video Traces/video.json (6 levels 300–4300 kbps, 48 segments of 4 s, 48 played), traces Traces/default"), "the table's source first")
        let lines = Array(printed.dropFirst())
        #expect(lines[0] == "ranked by mean session QoE on the 12 of 12 traces every complete strategy completed")
        #expect(lines[2].hasPrefix("1  ") && !lines[2].contains(" - [-, -]"), "\(lines[2])")
        #expect(lines[5].hasPrefix("-  dead") && lines[5].contains("0/12 (12 FAILED)") && lines[5].contains("- [-, -]"), "\(lines[5])")
        let ranked = try Self.json(folder.appendingPathComponent("results/ranked.json"))
        #expect((ranked["ranked"] as? [[String: Any]])?.allSatisfy { $0["qoe_total_mean"] is Double } == true)
        #expect((ranked["incomplete"] as? [[String: Any]])?.first?["qoe_total_mean"] is NSNull)
    }

    @Test func withEveryStrategyIncompleteNoneIsRanked() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("crashy.lua")
        try Self.crashy.write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "compare", "--strategies", script.path, "--traces", "Traces/default", "--out", folder.appendingPathComponent("out").path,
        ])
        #expect(result.status == 1)
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(printed[0].hasPrefix("profile default, QoE linear, video Traces/video.json (6 levels 300–4300 kbps, 48 segments of 4 s, 48 played), traces Traces/default"), "the table's source first")
        let lines = Array(printed.dropFirst())
        #expect(lines[0] == "no strategy completed every session, so none is ranked")
        #expect(lines[2].hasPrefix("incomplete, not ranked"))
        #expect(lines[3].hasPrefix("-  crashy") && lines[3].contains("6/12 (6 FAILED)"), "\(lines[3])")
        let ranked = try Self.json(folder.appendingPathComponent("out/ranked.json"))
        #expect(ranked["compared_traces"] as? Int == 0)
    }

    @Test func anIncompleteBaselineSaysSoAndPairsOnItsTraces() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("crashy.lua")
        try Self.crashy.write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "compare", "--strategies", script.path, "conservative", "--traces", "Traces/default", "--baseline", "crashy",
            "--out", folder.appendingPathComponent("out").path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\nagainst crashy (incomplete: completed 6 of 12 sessions), paired on the traces both completed:\n"))
        let summary = try Self.csv(folder.appendingPathComponent("out/summary.csv"))
        #expect(summary.first { $0["strategy"] == "conservative" }?["pairs"] == "6")
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
        (["--rank-by", "best"], "abrlab: --rank-by: 'best' is not one of mean, median\n"),
        (["--table", "xml"], "abrlab: --table: 'xml' is not one of text, json\n"),
    ])
    func badRankingOptionsGetOneLine(arguments: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default", "--out", out.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
