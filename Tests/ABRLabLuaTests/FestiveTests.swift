import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `Strategies/festive.lua` against hand-computed decisions (levels 300, 750, 1200, 1850, 2850,
/// 4300 kbps; p = 0.85, α = 12), and `Strategies/lib/randomized_scheduler.lua`.
@Suite(.tags(.lua), .selectedByTags) struct FestiveTests {
    /// One earlier download: its 0-based level, its throughput and the session time of its request.
    struct Step {
        let level: Int
        let throughputKbps: Double
        let requestSeconds: Double
    }

    static func context(_ video: Video, segment: Int, downloads: [DownloadRecord], elapsedSeconds: Double, bufferSeconds: Double) -> DecisionContext {
        DecisionContext(
            segmentIndex: segment, segmentCount: video.segmentCount, segmentDurationSeconds: video.segmentDurationSeconds,
            ladder: video.ladder, lastLevel: downloads.last?.level, bufferSeconds: bufferSeconds, rebufferSeconds: 0,
            stallCount: 0, elapsedSeconds: elapsedSeconds, estimateKbps: 0, networkQuality: .good, downloads: downloads, video: video
        )
    }

    /// Plays `steps` as the engine would (a decision, then its download) and returns the decision
    /// at `nowSeconds`; the buffer is 8 s at every earlier decision, so none of them waits.
    static func decision(after steps: [Step], nowSeconds: Double, bufferSeconds: Double = 8, seed: UInt64 = 1) throws -> RequestDecision {
        var strategy = try StrategyLibraryTests.script("festive").makeStrategy()
        let video = try Fixture.video(segments: 40)
        try strategy.setUp(Fixture.info(video, seed: seed))
        var downloads: [DownloadRecord] = []
        for (segment, step) in steps.enumerated() {
            let context = context(video, segment: segment, downloads: downloads, elapsedSeconds: step.requestSeconds, bufferSeconds: 8)
            #expect(try strategy.decide(context).delaySeconds == 0)
            let record = Fixture.download(segment: segment, level: step.level, throughputKbps: step.throughputKbps, video: video)
            try strategy.didDownload(record, context: context)
            downloads.append(record)
        }
        let now = context(video, segment: steps.count, downloads: downloads, elapsedSeconds: nowSeconds, bufferSeconds: bufferSeconds)
        return try strategy.decide(now)
    }

    @Test func festiveConforms() throws {
        let report = try StrategyConformance().check(try StrategyLibraryTests.script("festive").descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    /// Two downloads at 1850 kbps measured 1000 and 4000 kbps: w = 2 / (1/1000 + 1/4000) = 1600,
    /// p·w = 1360, whose level is 1200 kbps, one below: the reference is 1200. With n = 0,
    /// switching scores 2 + 12·|1200/1200 − 1| = 2 and staying 1 + 12·|1850/1200 − 1| = 7.5, so it
    /// switches. An arithmetic mean (2500, p·w = 2125) would have kept 1850.
    @Test func theEstimateIsTheHarmonicMean() throws {
        let steps = [Step(level: 3, throughputKbps: 1000, requestSeconds: 0), Step(level: 3, throughputKbps: 4000, requestSeconds: 4)]
        #expect(try Self.decision(after: steps, nowSeconds: 8).level == 2)
    }

    /// At 1200 kbps after one 10 kbps sample and then 2000 kbps ones: with 19 of those the slow one
    /// is among the last 20, w = 20 / (1/10 + 19/2000) ≈ 182.6 and the reference is 750
    /// (switching 2 + 12·|750/182.6 − 1| ≈ 39.3 beats staying 1 + 12·|1200/182.6 − 1| ≈ 67.9); with
    /// 20 it has left the window, w = 2000, p·w = 1700 still maps to 1200, and it stays.
    @Test(arguments: [(19, 1), (20, 2)])
    func theHarmonicMeanSpansTheLast20Samples(fast: Int, expectedLevel: Int) throws {
        let steps = [Step(level: 2, throughputKbps: 10, requestSeconds: 0)]
            + (1...fast).map { Step(level: 2, throughputKbps: 2000, requestSeconds: Double($0) * 4) }
        #expect(try Self.decision(after: steps, nowSeconds: Double(fast + 1) * 4).level == expectedLevel)
    }

    /// At 1200 kbps (level k = 3) on 10,000 kbps, whose p·w maps to 4300: one level up, and only
    /// once 3 segments in a row have played at 1200. Then switching scores 2^1 + 12·0 = 2 against
    /// staying's 1 + 12·|1200/1850 − 1| ≈ 5.22.
    @Test(arguments: [(1, 2), (2, 2), (3, 3), (4, 3)])
    func upSwitchesAreGradual(segmentsAtLevel: Int, expectedLevel: Int) throws {
        let steps = (0..<segmentsAtLevel).map { Step(level: 2, throughputKbps: 10000, requestSeconds: Double($0) * 4) }
        #expect(try Self.decision(after: steps, nowSeconds: Double(segmentsAtLevel) * 4).level == expectedLevel)
    }

    /// Levels 1200, 750, 1200, 750, 1200, 1200, 1200 on 10,000 kbps, ready to go up to 1850. Requests
    /// 2 s apart put all 4 switches in the last 20 s: switching scores 2^5 = 32 against staying's
    /// 2^4 + 12·|1200/1850 − 1| ≈ 20.2, so it stays. Requests 8 s apart leave them all more than
    /// 20 s back (at 8, 16, 24, 32 s, deciding at 56 s): n = 0 and it goes up. Counting the last
    /// 20 downloads would see 4 switches either way.
    @Test(arguments: [(2.0, 2), (8.0, 3)])
    func switchesCountOverTheLast20Seconds(spacingSeconds: Double, expectedLevel: Int) throws {
        let steps = [2, 1, 2, 1, 2, 2, 2].enumerated().map {
            Step(level: $1, throughputKbps: 10000, requestSeconds: Double($0) * spacingSeconds)
        }
        #expect(try Self.decision(after: steps, nowSeconds: 7 * spacingSeconds).level == expectedLevel)
    }

    /// With 4 s segments the target buffer is drawn from [26, 34) s: at 50 s of buffer the delay
    /// lies in (16, 24] s, spread over that range across seeds, the same for the same seed; at
    /// 20 s of buffer there is none.
    @Test func theRequestDelayIsDrawnAroundTheTargetBufferFromTheSessionSeed() throws {
        let step = [Step(level: 0, throughputKbps: 1000, requestSeconds: 0)]
        let seeds: [UInt64] = Array(1...100)
        let delays = try seeds.map { try Self.decision(after: step, nowSeconds: 4, bufferSeconds: 50, seed: $0).delaySeconds }
        #expect(delays.allSatisfy { $0 > 16 && $0 <= 24 }, "\(delays)")
        #expect(delays.min()! < 17 && delays.max()! > 23)
        #expect(Set(delays).count == delays.count)
        let again = try seeds.map { try Self.decision(after: step, nowSeconds: 4, bufferSeconds: 50, seed: $0).delaySeconds }
        #expect(again == delays)
        #expect(try seeds.prefix(10).allSatisfy { try Self.decision(after: step, nowSeconds: 4, bufferSeconds: 20, seed: $0).delaySeconds == 0 })
    }

    /// The module on its own, required by another script: target 10 s, δ 2 s.
    @Test func theSchedulerModuleServesOtherScripts() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        let module = try String(contentsOfFile: StrategyLibraryTests.folder + "/lib/randomized_scheduler.lua", encoding: .utf8)
        try folder.write("lib/randomized_scheduler.lua", module)
        let script = try folder.load("paced.lua", """
            local scheduler = require("lib.randomized_scheduler")
            return { choose = function(ctx) return 1, scheduler.delay_s(ctx.buffer_s, 10, 2) end }
            """)
        let video = try Fixture.video()
        for (buffer, range) in [(5.0, 0.0...0.0), (20.0, 8.000001...10.0), (11.0, 0.0...3.0)] {
            var strategy = script.makeStrategy()
            try strategy.setUp(Fixture.info(video))
            let delay = try strategy.decide(Self.context(video, segment: 0, downloads: [], elapsedSeconds: 0, bufferSeconds: buffer)).delaySeconds
            #expect(range.contains(delay), "buffer \(buffer) s: delay \(delay) s")
        }
    }

    /// On a constant 6 Mbps link with a 60 s cap, the scheduling holds the buffer around 30 s, not
    /// at the cap, through delays rather than full-buffer waits, and the same seed plays the same.
    @Test func schedulingHoldsTheBufferNearTheTarget() throws {
        let ladder = Fixture.levelsKbps.enumerated().map { BitrateLevel(bitrate: $1 * 1000, label: "L\($0)") }
        let video = try Video(name: "cbr", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 120)
        let trace = try NetworkTrace(name: "flat", periodEndSeconds: [5000], bandwidthBitsPerSecond: [6_000_000], latencySeconds: [0.05])
        func play() throws -> [SegmentRecord] {
            try SessionEmulator(profile: .default).run(
                strategy: try StrategyLibraryTests.script("festive").descriptor().makeStrategy(), strategyID: "festive", trace: trace, video: video
            ).segments
        }
        let segments = try play()
        #expect(segments.count == 120)
        #expect(segments.allSatisfy { $0.waitSeconds == 0 })
        for segment in segments.suffix(60) {
            #expect(segment.bufferAfterSeconds > 22 && segment.bufferAfterSeconds < 38, "buffer \(segment.bufferAfterSeconds) s at segment \(segment.index + 1)")
        }
        #expect(try play() == segments)
    }
}
