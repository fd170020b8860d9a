import Foundation
import Testing

/// The whole live set — ll-throughput, LoL+ and L2A-LL from Strategies/live — over the five
/// Twitch challenge patterns in one compare: every session completes, LoL+'s random start
/// (its k-means++ draw from the session's math.random) stays deterministic, and the files are
/// byte-identical whatever --jobs is.
@Suite struct LiveStrategiesCompareTests {
    static let run = [
        "compare", "--profile", "live", "--video", "twitch-ll", "--qoe", "nqoe", "--traces", "Traces/twitch-ll",
        "--strategies", "Strategies/live",
    ]

    @Test func theLiveSetWhateverTheJobCount() throws {
        let one = try CLI.temporaryFolder()
        let three = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: three) }
        let first = try CLI.run(Self.run + ["--out", one.path, "--jobs", "1"])
        let second = try CLI.run(Self.run + ["--out", three.path, "--jobs", "3"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        for file in ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv", "ranked.json"] {
            let a = try CLI.read(one.appendingPathComponent(file))
            #expect(a == (try CLI.read(three.appendingPathComponent(file))), "\(file) depends on --jobs")
        }
        let table = first.stdout
        #expect(table.contains("on the 5 of 5 traces every strategy completed"), "\(table)")
        for id in ["l2a", "ll-throughput", "lolp"] {
            #expect(table.contains("  \(id) "), "\(id) is ranked: \(table)")
        }
        let sessions = try CLI.read(one.appendingPathComponent("sessions.csv")).split(separator: "\n")
        #expect(sessions.count == 1 + 3 * 5)
    }
}
