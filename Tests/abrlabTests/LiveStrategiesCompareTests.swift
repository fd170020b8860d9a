import Foundation
import Testing
import TestSupport

/// The whole live set — ll-throughput, LoL+ and L2A-LL from Strategies/live — over the five
/// Twitch challenge patterns in one compare: every session completes, LoL+'s random start
/// (its k-means++ draw from the session's math.random) stays deterministic, and the files are
/// byte-identical whatever --jobs is.
@Suite(.tags(.cli), .selectedByTags) struct LiveStrategiesCompareTests {
    static let run = [
        "compare", "--profile", "live", "--video", "twitch-ll", "--qoe", "nqoe", "--traces", "Traces/twitch-ll",
        "--strategies", "Strategies/live",
    ]

    @Test func theLiveSetWhateverTheJobCount() throws {
        let files = ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv", "ranked.json"]
        try CLI.acrossJobs(Self.run, jobs: 3, files: files) { first, folder in
            #expect(first.stdout.contains("on the 5 of 5 traces every strategy completed"), "\(first.stdout)")
            for id in ["live/l2a", "live/ll-throughput", "live/lolp"] {
                #expect(first.stdout.contains("  \(id) "), "\(id) is ranked: \(first.stdout)")
            }
            let sessions = try CLI.read(folder.appendingPathComponent("sessions.csv")).split(separator: "\n")
            #expect(sessions.count == 1 + 3 * 5)
        }
    }
}
