import ABRLab
import EngineFixtures
import Testing
import TestSupport

/// The warm-up of `--warmup-s` on a timeline worked out by hand: twitch-ll's 0.5 s segments of
/// 15 chunks, target latency 1 s, the lowest level (12 500 bytes a segment: five chunks of 834
/// bytes, then 833), a 2 s warm-up at 10⁶ kbps and a pattern of 3 s at 600 kbps.
///
/// Chunk j of segment k exists from k·0.5 + (j+1)/30 − 1 s, so segment k's last chunk from
/// 0.5k − 0.5 s. Segments 0 and 1 exist at the join; segment k ≥ 1 ends 0.5k − 0.5 s plus one
/// chunk's transfer. On the warm-up link that is 833·8/10⁹ s, so segments 0…4 (the last at
/// 1.5 s + 6.664 µs) are the warm-up's five rows. Segment 5's last chunk exists at 2.0 s, just
/// as the pattern starts, and crosses the 600 kbps link in 833·8/600 000 s. The pattern plays
/// to its end: (2 + 3 + 1) / 0.5 = 12 segments, the last one finished by the encoder at 5.0 s.
@Suite(.tags(.core), .selectedByTags) struct LiveWarmupTests {
    static let patternChunkSeconds = 833.0 * 8 / 600_000
    static let warmupChunkSeconds = 833.0 * 8 / 1e9

    static func run(warmup: LiveWarmup?) throws -> SessionResult {
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(targetLatencySeconds: 1, warmup: warmup))
        var lowest = ScriptedStrategy(levels: [0])
        let trace = try LiveFixtures.trace([(600_000 / 1024, 3)])
        return try SessionEmulator(profile: profile).run(&lowest, strategyID: "low", trace: trace, video: LiveFixtures.video())
    }

    @Test func theWarmupBoundaryFallsWhereTheHandTimelineSays() throws {
        let result = try Self.run(warmup: LiveWarmup(seconds: 2, linkKbps: 1e6))
        #expect(result.warmup == WarmupRecord(seconds: 2, rowCount: 5, stallCount: 0))
        #expect(result.segments.map(\.index) == Array(0..<12))
        #expect(abs(result.segments[4].downloadEndSeconds - (1.5 + Self.warmupChunkSeconds)) < 1e-9)
        #expect(abs(result.segments[5].downloadEndSeconds - (2.0 + Self.patternChunkSeconds)) < 1e-9)
        #expect(abs(result.segments[11].downloadEndSeconds - (5.0 + Self.patternChunkSeconds)) < 1e-9)
        #expect(result.stallCount == 0)

        let ladder = try LiveFixtures.video().ladder
        let qoe = QoEModel(kind: .nqoe)
        let scores = qoe.segmentScores(result, ladder: ladder)
        let metrics = SessionMetrics(result: result, qoe: qoe, ladder: ladder, segmentScores: scores)
        #expect(metrics.segments == 7)
        #expect(metrics.qoeTotal == scores[5...].reduce(0, +))
        #expect(metrics.startupSeconds == 0)
        #expect(metrics.switchCount == 0)
        // The latency and rate means cover only the pattern rows' chunks: 7 × 15.
        #expect(result.scoredLiveChunks.count == 105)
        #expect(result.scoredLiveChunks.first.map { ($0.segmentIndex, $0.chunkIndex) } ?? (0, 0) == (5, 0))
    }

    /// Without a warm-up the session plays media for the pattern's length, 6 segments, the
    /// last finished at 2.5 s: the pattern's last 0.5 s (past 3 s − target) carries nothing.
    @Test func withoutAWarmupTheLastTargetOfThePatternIsUnused() throws {
        let result = try Self.run(warmup: nil)
        #expect(result.warmup == nil)
        #expect(result.segments.count == 6)
        #expect(abs(result.segments[5].downloadEndSeconds - (2.0 + Self.patternChunkSeconds)) < 1e-9)
        #expect(result.scoredSegments.count == 6)
    }

    /// A zero warm-up keeps every row but plays the pattern to its end.
    @Test func aZeroWarmupScoresEveryRowAndPlaysThePatternToItsEnd() throws {
        let result = try Self.run(warmup: LiveWarmup(seconds: 0, linkKbps: 1e6))
        #expect(result.warmup == WarmupRecord(seconds: 0, rowCount: 0, stallCount: 0))
        #expect(result.segments.count == 8)
        #expect(result.scoredSegments.count == 8)
    }

    /// With a live duration, the duration is the session time scored after the warm-up: the
    /// encoder finishes the last segment at 2 + 2 s, so (2 + 2 + 1) / 0.5 = 10 segments.
    @Test func aLiveDurationCountsAfterTheWarmup() throws {
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(targetLatencySeconds: 1, durationSeconds: 2, warmup: LiveWarmup(seconds: 2, linkKbps: 1e6)))
        var lowest = ScriptedStrategy(levels: [0])
        let trace = try LiveFixtures.trace([(600_000 / 1024, 3)])
        let result = try SessionEmulator(profile: profile).run(&lowest, strategyID: "low", trace: trace, video: LiveFixtures.video())
        #expect(result.segments.count == 10)
        #expect(result.scoredSegments.count == 5)
    }

    @Test(arguments: [-1, .nan, .infinity, 86_401])
    func aWarmupOutOfRangeIsRefused(seconds: Double) {
        #expect(throws: InputError(setting: .warmupS, "must be a number of seconds from 0 to 86400")) {
            try LiveSettings(warmup: LiveWarmup(seconds: seconds)).validate()
        }
    }
}
