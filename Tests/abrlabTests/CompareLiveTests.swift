import Foundation
import Testing
import TestSupport

/// The Twitch challenge's five patterns × live strategies in one `compare`: deterministic,
/// byte-identical whatever --jobs is, scored by NQoE, with the live columns the docs describe.
@Suite(.tags(.cli, .golden), .selectedByTags) struct CompareLiveTests {
    static let liveRun = [
        "compare", "--profile", "live", "--video", "twitch-ll", "--qoe", "nqoe", "--traces", "Traces/twitch-ll",
        "--strategies", "Strategies/live/ll-throughput.lua", "throughput", "conservative",
    ]

    @Test func fivePatternsWhateverTheJobCount() throws {
        let one = try CLI.temporaryFolder()
        let two = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        let first = try CLI.run(Self.liveRun + ["--out", one.path, "--jobs", "1"])
        let second = try CLI.run(Self.liveRun + ["--out", two.path, "--jobs", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        // The last line names the output folder.
        func table(_ text: String) -> String { text.components(separatedBy: "\nwrote ")[0] }
        #expect(table(first.stdout) == table(second.stdout))
        for file in ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv"] {
            let a = try CLI.read(one.appendingPathComponent(file))
            #expect(a == (try CLI.read(two.appendingPathComponent(file))), "\(file) depends on --jobs")
        }
        try CLI.expectGolden(table(first.stdout), "compare-live-table.txt")
        try CLI.expectGolden(try CLI.read(one.appendingPathComponent("sessions.csv")), "compare-live-sessions.csv")
        #expect(first.stdout.contains("latency s") && first.stdout.contains("rate dev"))

        let segments = try CLI.read(one.appendingPathComponent("segments.csv")).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = segments[0].map(String.init)
        let columns = ["live_latency_s", "playback_rate", "playhead_s", "production_wait_s"].map { header.firstIndex(of: $0)! }
        // 150 + 135 + 30 + 30 + 11.6 s of patterns in 0.5 s segments, for three strategies.
        #expect(segments.count - 1 == 3 * (300 + 270 + 60 + 60 + 24))
        for row in segments.dropFirst() {
            for column in columns { #expect(Double(row[column]) != nil, "\(row)") }
        }
    }
}
