import Foundation
import Testing
import TestSupport

/// The live options of the Twitch challenge's scoring (`--warmup-s`, `--warmup-kbps`,
/// `--catchup`, `--catchup-min-drift-s`) through the CLI: bad values are one line and nothing
/// written; a warm-up's rows carry an empty qoe cell and the session's total is the sum of the
/// other rows' cells; `--catchup dashjs5` is the default, byte for byte.
@Suite(.tags(.cli), .selectedByTags) struct LiveOptionsCLITests {
    static let live = [
        "compare", "--profile", "live", "--video", "twitch-ll", "--qoe", "nqoe", "--traces", "Traces/twitch-ll/cascade.csv",
        "--strategies", "Strategies/live/ll-throughput.lua", "--out", "OUT/results", "--quiet",
    ]

    static let refused: [(arguments: [String], message: String)] = [
        (live + ["--warmup-s=-1"], "--warmup-s: must be a number of seconds from 0 to 86400"),
        (live + ["--warmup-s", "nan"], "--warmup-s: must be a number of seconds from 0 to 86400"),
        (live + ["--warmup-s", "inf"], "--warmup-s: must be a number of seconds from 0 to 86400"),
        (live + ["--warmup-s", "10", "--warmup-kbps", "0"], "--warmup-kbps: must be a positive number of kbps"),
        // Checked before any session: each used to fail naming live_duration_s and segments.
        (live + ["--warmup-s", "86400"], "--warmup-s: must be under 86398.5 s here: with the target latency (1.5 s) the session would pass its limit of 86400 s"),
        (live + ["--warmup-s", "80000", "--live-duration-s", "7000"],
         "--warmup-s: must be under 79398.5 s here: with the target latency and --live-duration-s (7001.5 s) the session would pass its limit of 86400 s"),
        (live + ["--warmup-kbps", "5000"], "--warmup-kbps: sets the warm-up's link; give --warmup-s too"),
        (OptionRangeTests.compare + ["--warmup-s", "10"], "--warmup-s: works on the live profiles only, not on default"),
        (live + ["--catchup", "dashjs4"], "--catchup: 'dashjs4' is not one of dashjs5, dashjs3"),
        (live + ["--catchup-min-drift-s", "0.05"], "--catchup-min-drift-s: is dash.js 3.0.1's dead band; give --catchup dashjs3 too"),
        (live + ["--catchup", "dashjs5", "--catchup-min-drift-s", "0.05"], "--catchup-min-drift-s: is dash.js 3.0.1's dead band; dashjs5 has none"),
        (live + ["--catchup", "dashjs3", "--catchup-min-drift-s=-0.1"], "--catchup-min-drift-s: must be a number of seconds from 0 to 86400"),
        (live + ["--catchup", "dashjs3", "--catchup-min-drift-s", "nan"], "--catchup-min-drift-s: must be a number of seconds from 0 to 86400"),
        (OptionRangeTests.compare + ["--catchup", "dashjs3"], "--catchup: works on the live profiles only, not on default"),
    ]

    @Test(arguments: refused.indices)
    func badValuesAreOneLineAndNoOutput(index: Int) throws {
        try OptionRangeTests.expectRefused(Self.refused[index].arguments, Self.refused[index].message)
    }

    @Test func warmupRowsHaveNoScoreAndTheTotalIsThePatternsRows() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = Self.live.map { $0.replacingOccurrences(of: "OUT", with: folder.path) } + ["--warmup-s", "10"]
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let sessions = try CLI.read(folder.appendingPathComponent("results/sessions.csv")).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let segments = try CLI.read(folder.appendingPathComponent("results/segments.csv")).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let qoe = segments[0].firstIndex(of: "qoe")!
        let end = segments[0].firstIndex(of: "download_end_s")!
        let rows = segments.dropFirst()
        let warmup = rows.prefix { $0[qoe].isEmpty }
        // Every row delivered by 10 s is the warm-up's, and none after.
        #expect(!warmup.isEmpty)
        #expect(warmup.allSatisfy { Double($0[end])! <= 10 })
        #expect(rows.dropFirst(warmup.count).allSatisfy { !$0[qoe].isEmpty && Double($0[end])! > 10 })
        let total = Double(sessions[1][sessions[0].firstIndex(of: "qoe_total")!])!
        #expect(total == rows.dropFirst(warmup.count).reduce(0) { $0 + Double($1[qoe])! })
        #expect(Int(sessions[1][sessions[0].firstIndex(of: "segments")!])! == rows.count - warmup.count)
        // CASCADE lasts 150 s: its pattern plays to its end, (10 + 150 + 1.5) / 0.5 segments.
        #expect(rows.count == 323)
    }

    @Test func dashjs5IsTheDefaultByteForByte() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = Self.live.map { $0.replacingOccurrences(of: "OUT/results", with: folder.appendingPathComponent("plain").path) }
        let named = Self.live.map { $0.replacingOccurrences(of: "OUT/results", with: folder.appendingPathComponent("named").path) }
        #expect(try CLI.run(plain).status == 0)
        #expect(try CLI.run(named + ["--catchup", "dashjs5"]).status == 0)
        for file in ["sessions.csv", "segments.csv"] {
            let a = try CLI.read(folder.appendingPathComponent("plain/\(file)"))
            #expect(a == (try CLI.read(folder.appendingPathComponent("named/\(file)"))), "\(file) differs")
        }
    }

    /// `run`'s timeline says which rows are the warm-up's instead of scoring them.
    @Test func runMarksTheWarmupRows() throws {
        let result = try CLI.run([
            "run", "--profile", "twitch-challenge", "--video", "twitch-ll", "--qoe", "nqoe", "--trace", "Traces/twitch-ll/spike.csv",
            "--strategy", "Strategies/live/ll-throughput.lua",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.dropFirst()
        #expect(rows.prefix(21).allSatisfy { $0.contains("warm-up") })
        #expect(!rows.dropFirst(21).contains { $0.contains("warm-up") })
        #expect(rows.count == 82)
    }
}
