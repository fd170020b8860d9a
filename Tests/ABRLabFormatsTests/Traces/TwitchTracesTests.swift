import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// The shipped `Traces/twitch-ll` files hold the challenge's five patterns in its harness's
/// units: speed · 1024 bit/s, no latency.
@Suite(.tags(.core), .selectedByTags) struct TwitchTracesTests {
    static let folder = PackageRoot.file("Traces/twitch-ll")

    /// (name, [speed, seconds, speed, seconds, …]) as the challenge lists them.
    static let patterns: [(String, [Double])] = [
        ("cascade", [1200, 30, 800, 30, 400, 30, 800, 30, 1200, 30]),
        ("intra_cascade", [1000, 15, 800, 15, 600, 15, 400, 15, 200, 15, 400, 15, 600, 15, 800, 15, 1000, 15]),
        ("spike", [1200, 10, 300, 10, 800, 10]),
        ("slow_jitters", [500, 5, 1200, 5, 500, 5, 1200, 5, 500, 5, 1200, 5]),
        ("fast_jitters", [500, 0.25, 1200, 5, 500, 0.1, 1200, 1, 500, 0.25, 1200, 5]),
    ]

    @Test(arguments: patterns)
    func patternInTheHarnessUnits(name: String, flat: [Double]) throws {
        let periods = stride(from: 0, to: flat.count, by: 2).map { (flat[$0], flat[$0 + 1]) }
        let loaded = try TraceLoader.load(Self.folder.appendingPathComponent(name + ".csv"))
        #expect(loaded.warnings.isEmpty)
        let trace = loaded.trace
        #expect(trace.latencySeconds == nil)
        #expect(trace.periods.count == periods.count)
        for (period, (speed, seconds)) in zip(trace.periods, periods) {
            #expect(period.bandwidthBitsPerSecond == speed * 1024)
            #expect(abs(period.durationSeconds - seconds) < 1e-9)
        }
    }
}
