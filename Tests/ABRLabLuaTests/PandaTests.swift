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

    /// The target-rate update on a constant 6000 kbps link, by hand (τ = 4 s, B = 30 s at each
    /// decision from the third, 26 s at the second). The first download measured 3000 kbps (its
    /// start was slow), so x̂ = ŷ = 3000: up to the level ≤ 0.85 · 3000 = 2550, 1850 kbps, and the
    /// target interval T̂₁ = 1850 · 4 / 3000 + 0.2 · (26 − 26) = 2.466667 s.
    /// Decision 3: the 1850 download took 925001 · 8 / 6e6 = 1.233335 s, so the delay is
    /// 2.466667 − 1.233335 = 1.233332 s and T = T̂₁; x̂ = 3000 + 0.28 · T · (300 − max(0, 3000 − 6000 + 300))
    /// = 3207.2 (additive increase: the probe is below the measured rate by more than ω);
    /// ŷ = 3000 − 0.2 · T · (3000 − 3207.2) = 3102.218667; the dead zone keeps 1850 (up level ≤ 2636.9
    /// is 1850, down level ≤ 3102.2 is 2850); T̂₂ = 7400 / ŷ + 0.2 · (30 − 1.233332 − 26) = 2.938723 s.
    /// Decision 4: delay T̂₂ − 1.233336 = 1.705387 s; x̂ = 3207.2 + 0.28 · T̂₂ · 300 = 3454.052745,
    /// ŷ = 3102.218667 + 0.2 · T̂₂ · (3454.052745 − 3102.218667) = 3309.007257, still 1850;
    /// T̂₃ = 7400 / ŷ + 0.2 · (30 − 1.705387 − 26) = 2.695243 s, so decision 5 waits 2.695243 − 1.233339 = 1.461906 s;
    /// there x̂ = 3454.052745 + 0.28 · T̂₃ · 300 = 3680.453143 and ŷ = 3509.234630, whose 0.85 · ŷ = 2982.8
    /// clears 2850: the probe has climbed out of the dead zone, one level up.
    @Test func theTargetRateUpdateOnAConstantLinkByHand() throws {
        try Self.play(
            measuredKbps: [3000, 6000, 6000, 6000], bufferSeconds: [0, 26, 30, 30, 30],
            expected: [(0, 0), (3, 0), (3, 1.233332), (3, 1.705387153), (4, 1.461905505)]
        )
    }

    /// The quantizer's down side, by hand: down to the highest level ≤ ŷ, with no margin (ns-3's
    /// `panda.cc` keeps ω below ŷ and cuts bitrates to whole Mbps). As above, x̂ = ŷ = 3000 after a
    /// 3000 kbps first download picks 1850, T̂₁ = 2.466667 s. Its download measures 1500 kbps and
    /// takes 925001 · 8 / 1.5e6 = 4.933339 s, longer than T̂₁: no delay, T = 4.933339 s;
    /// x̂ = 3000 + 0.28 · T · (300 − (3000 − 1500 + 300)) = 927.997760 (the back-off) and
    /// ŷ = 3000 − 0.2 · T · (3000 − 927.997760) = 955.622246, whose highest level below is 750:
    /// two levels down at once, as the dead zone's lower edge says. T̂₂ = 750 · 4 / ŷ = 3.139316 s.
    /// The 750 download at 1500 kbps takes 2.000011 s, so the next request waits 1.139305 s;
    /// x̂ = 927.997760 + 0.28 · T̂₂ · 300 = 1191.700286, ŷ = 1103.846949: up needs 0.85 · ŷ =
    /// 938.3 ≥ 1200, down keeps 750, so it holds.
    @Test func aDownSwitchGoesToTheHighestLevelBelowTheSmoothedRate() throws {
        try Self.play(measuredKbps: [3000, 1500, 1500], bufferSeconds: [0, 26, 26, 26], expected: [(0, 0), (3, 0), (1, 0), (1, 1.139305116)])
    }

    /// Plays decisions on a ten-segment video: before decision k the buffer holds
    /// `bufferSeconds[k]` and the downloads so far measured `measuredKbps`; each decision must
    /// give the expected level and delay.
    private static func play(measuredKbps: [Double], bufferSeconds: [Double], expected: [(level: Int, delay: Double)]) throws {
        let video = try Fixture.video(segments: 10)
        var strategy = try descriptor().makeStrategy()
        try strategy.setUp(Fixture.info(video))
        var downloads: [DownloadRecord] = []
        for (decision, want) in expected.enumerated() {
            let context = Fixture.context(video, segment: decision, downloads: downloads, bufferSeconds: bufferSeconds[decision])
            let answer = try strategy.decide(context)
            #expect(answer.level == want.level, "decision \(decision + 1)")
            #expect(abs(answer.delaySeconds - want.delay) < 1e-6, "decision \(decision + 1): delay \(answer.delaySeconds)")
            guard decision < measuredKbps.count else { break }
            let record = Fixture.download(segment: decision, level: answer.level, throughputKbps: measuredKbps[decision], video: video)
            try strategy.didDownload(record, context: context)
            downloads.append(record)
        }
    }
}
