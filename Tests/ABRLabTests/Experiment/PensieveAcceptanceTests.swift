import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// The `pensieve` profile against totals from Pensieve's own simulator, on its public test set.
@Suite(.tags(.core, .datasets, .reference, .scale), .selectedByTags, .needsDatasets)
struct PensieveAcceptanceTests {
    static func video() throws -> Video {
        try VideoLoader.load(
            Datasets.url("pensieve/video_sizes"),
            ladderKbps: VideoPreset.pensieveLadderKbps, segmentDurationSeconds: VideoPreset.pensieveSegmentDurationSeconds
        )
    }

    static func total(traceFile: URL, video: Video) throws -> Double {
        let trace = try TraceLoader.load(traceFile).trace
        var strategy = BufferBasedStrategy()
        let result = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: "bba", trace: trace, video: video)
        #expect(result.segments.count == 48)
        return SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
    }

    @Test(arguments: [
        ("norway_bus_1", 77.88468025140871),
        ("norway_ferry_1", 45.33013048762693),
        ("norway_tram_1", -10.142064899823106),
    ])
    func bufferBasedTotalsMatchPensieve(trace: String, expected: Double) throws {
        let url = Datasets.url("pensieve/cooked_test_traces/\(trace)")
        #expect(abs(try Self.total(traceFile: url, video: try Self.video()) - expected) < 1e-9)
    }
}

extension PensieveAcceptanceTests {
    @Test func robustMPCWithPensieveLookaheadMatchesItsTotal() throws {
        let video = try Self.video()
        let trace = try TraceLoader.load(Datasets.url("pensieve/cooked_test_traces/norway_bus_1")).trace
        var strategy = RobustMPCStrategy(lookaheadOffset: 1)
        let result = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: "mpc", trace: trace, video: video)
        let total = SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
        #expect(abs(total - 94.1626876599077) < 1e-9)
    }
}
