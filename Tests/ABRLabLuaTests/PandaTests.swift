import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `Strategies/shared/panda.lua`: it conforms, and its request pacing steers the buffer towards
/// B_min instead of filling it.
@Suite(.tags(.lua), .selectedByTags) struct PandaTests {
    static func descriptor() throws -> StrategyDescriptor {
        try LuaStrategyLoader().load(path: "\(StrategyLibraryTests.folder)/shared/panda.lua").descriptor()
    }

    @Test func pandaConforms() throws {
        let report = try StrategyConformance().check(try Self.descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    /// On a constant 6 Mbps link, with a 60 s buffer cap: PANDA delays its requests, never waits
    /// on a full buffer, and keeps the buffer in the band its pacing steers to, B_min = 26 s plus
    /// (τ − r·τ/ŷ) / β, at most 26 + 4 / 0.2 = 46 s.
    @Test func pacingHoldsTheBufferNearTheMinimumNotTheCap() throws {
        let ladder = [300, 750, 1200, 1850, 2850, 4300].enumerated().map { BitrateLevel(bitrate: $1 * 1000, label: "L\($0)") }
        let video = try Video(name: "cbr", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 120)
        let trace = try NetworkTrace(name: "flat", periodEndSeconds: [5000], bandwidthBitsPerSecond: [6_000_000], latencySeconds: [0.05])
        let result = try SessionEmulator(profile: .default).run(
            strategy: try Self.descriptor().makeStrategy(), strategyID: "shared/panda", trace: trace, video: video
        )
        let segments = result.segments
        #expect(segments.count == 120)
        #expect(segments.allSatisfy { $0.waitSeconds == 0 })
        let gaps = zip(segments, segments.dropFirst()).map { $1.downloadStartSeconds - $0.downloadEndSeconds }
        #expect(gaps.contains { $0 > 0.1 })
        for segment in segments.suffix(60) {
            #expect(segment.bufferAfterSeconds > 20 && segment.bufferAfterSeconds < 50, "buffer \(segment.bufferAfterSeconds) s at segment \(segment.index + 1)")
        }
        #expect(segments.suffix(60).allSatisfy { $0.level == 5 })
    }
}
