@testable import ABRLab
import Testing
import TestSupport

/// The shared-link measures of groups.csv against their closed forms.
@Suite(.tags(.core), .selectedByTags) struct GroupMetricsTests {
    @Test(arguments: [1, 2, 5, 8])
    func jainIsOneForIdenticalPlayers(players: Int) {
        #expect(GroupMetrics.jain(Array(repeating: 1850, count: players)) == 1)
    }

    @Test(arguments: [(1, 4), (2, 4), (3, 8), (5, 5)])
    func jainIsKOverNWhenKShareAndTheRestGetNothing(equal k: Int, of n: Int) {
        let values = Array(repeating: 1200.0, count: k) + Array(repeating: 0, count: n - k)
        #expect(abs(GroupMetrics.jain(values) - Double(k) / Double(n)) < 1e-12)
    }

    @Test func jainOfNothingIsMissing() {
        #expect(GroupMetrics.jain([]).isNaN)
        #expect(GroupMetrics.jain([0, 0]).isNaN)
    }

    @Test func qoeFairnessSpansZeroToOne() {
        #expect(GroupMetrics.qoeFairness([2, 2, 2], low: 0, high: 4) == 1)
        #expect(GroupMetrics.qoeFairness([0, 4], low: 0, high: 4) == 0)
        // Clipped to the scale: a score below L counts as L.
        #expect(GroupMetrics.qoeFairness([-10, 4], low: 0, high: 4) == 0)
        #expect(GroupMetrics.qoeFairness([1, 3], low: 0, high: 4) == 0.5)
    }

    /// Two players alone on a constant link, one at 400 kbps, one at 600: together they fill
    /// 1000 kbps exactly, switch never, and get 25/26 of Jain's index.
    @Test func measuresOfTwoSteadyPlayersOnAConstantLink() throws {
        let trace = try NetworkTrace(name: "flat", periodEndSeconds: [100], bandwidthBitsPerSecond: [1_000_000])
        func player(kbps: Double) -> GroupMetrics.Player {
            let segments = (0..<30).map { index in
                SegmentRecord(
                    index: index, level: 0, bitrateKbps: kbps, sizeBytes: Int(kbps * 2000 / 8),
                    downloadStartSeconds: Double(index) * 2, downloadEndSeconds: Double(index + 1) * 2, downloadTimeSeconds: 2,
                    latencySeconds: 0, throughputKbps: kbps, bufferBeforeSeconds: 0, bufferAfterSeconds: 2, rebufferSeconds: 0,
                    waitSeconds: 0, bufferState: .good, estimateKbps: kbps, networkQuality: .good
                )
            }
            return GroupMetrics.Player(startSeconds: 0, segments: segments, meanBitrateKbps: kbps, qoePerSegment: kbps / 1000)
        }
        let metrics = GroupMetrics(players: [player(kbps: 400), player(kbps: 600)], trace: trace, qoeRange: 0.3...4.3)
        #expect(abs(metrics.jain - 25.0 / 26) < 1e-12)
        #expect(abs(metrics.unfairness - (1.0 / 26).squareRoot()) < 1e-12)
        #expect(abs(metrics.inefficiency) < 1e-12)
        #expect(metrics.instability == 0)
        #expect(abs(metrics.utilisation - 1) < 1e-12)
        #expect(metrics.overlapSeconds == 60)
        #expect(abs(metrics.qoeFairness - (1 - 2 * 0.1 / 4)) < 1e-12)
    }
}
