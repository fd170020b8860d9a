import Foundation
import Testing
import TestSupport

/// The challenge's recipe (`--profile twitch-challenge`) on its five patterns with the live
/// strategies, as issue 28's acceptance asks: the warm-up's rows are scored nowhere (each
/// session's QoE total is the sum over the pattern's rows), no stall falls in the warm-up,
/// ll-throughput holds CASCADE within 0.1 s of the 1 s target on average, and wherever the
/// player's catch-up sets the rate, a latency within the 0.05 s dead band leaves it at exactly 1.
@Suite(.tags(.cli), .selectedByTags) struct TwitchChallengeTests {
    static let recipe = [
        "compare", "--profile", "twitch-challenge", "--video", "twitch-ll", "--qoe", "nqoe", "--traces", "Traces/twitch-ll",
        "--strategies", "Strategies/live", "--quiet",
    ]

    typealias Table = (header: [String], rows: [[String]])

    static func table(_ url: URL) throws -> Table {
        let lines = try CLI.read(url).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return (lines[0], Array(lines.dropFirst()))
    }

    @Test func theRecipeScoresOnlyThePattern() throws {
        try CLI.acrossJobs(Self.recipe, jobs: 2, files: ["sessions.csv", "segments.csv"]) { _, folder in
            let sessions = try Self.table(folder.appendingPathComponent("sessions.csv"))
            let segments = try Self.table(folder.appendingPathComponent("segments.csv"))
            func column(_ table: Table, _ name: String) -> Int { table.header.firstIndex(of: name)! }
            let (strategy, trace, qoe, rebuffer) = (column(segments, "strategy"), column(segments, "trace"), column(segments, "qoe"), column(segments, "rebuffer_s"))
            let (latency, rate) = (column(segments, "live_latency_s"), column(segments, "playback_rate"))
            #expect(sessions.rows.count == 15)
            // The patterns last 150, 135, 30, 30 and 11.6 s: (10 + pattern + 1) / 0.5 rows each.
            let rowsPerTrace = ["cascade": 322, "intra_cascade": 292, "slow_jitters": 82, "spike": 82, "fast_jitters": 46]
            for session in sessions.rows {
                let name = session[column(sessions, "strategy")], traceName = session[column(sessions, "trace")]
                #expect(session[column(sessions, "error")].isEmpty)
                let rows = segments.rows.filter { $0[strategy] == name && $0[trace] == traceName }
                #expect(rows.count == rowsPerTrace[traceName], "\(name) on \(traceName)")
                let warmup = rows.prefix { $0[qoe].isEmpty }
                let pattern = rows.dropFirst(warmup.count)
                // Rows finished by 10 s: the 21 segments whose last chunk exists by 10 s, minus the one arriving just after.
                #expect(warmup.count == 21, "\(name) on \(traceName)")
                #expect(warmup.allSatisfy { Double($0[rebuffer]) == 0 }, "a stall in the warm-up: \(name) on \(traceName)")
                #expect(pattern.allSatisfy { !$0[qoe].isEmpty })
                #expect(Double(session[column(sessions, "qoe_total")]) == pattern.reduce(0) { $0 + Double($1[qoe])! }, "\(name) on \(traceName)")
                #expect(Int(session[column(sessions, "segments")]) == pattern.count)
                // LoL+ sets its own rate; the others leave it to the catch-up.
                guard name != "live/lolp" else { continue }
                for row in rows where abs((Double(row[latency])! * 1000).rounded() / 1000 - 1) <= 0.05 {
                    #expect(Double(row[rate]) == 1, "\(name) on \(traceName): latency \(row[latency]), rate \(row[rate])")
                }
            }
            let cascade = try #require(sessions.rows.first { $0[column(sessions, "strategy")] == "live/ll-throughput" && $0[column(sessions, "trace")] == "cascade" })
            let meanLatency = try #require(Double(cascade[column(sessions, "live_latency_s")]))
            #expect(abs(meanLatency - 1) <= 0.1)
        }
    }
}
