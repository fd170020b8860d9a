import ABRLab
import EngineFixtures
import Testing
import TestSupport

/// What any correct live model shows (issue 15's acceptance): a link above the top bitrate
/// holds the target latency without stalls; a dip below it stalls an always-top player and
/// grows its latency until catch-up takes it back; production waits never look like a slow link.
@Suite(.tags(.core), .selectedByTags) struct LiveProfileTests {
    static let target = 1.5

    @Test func constantLinkSettlesWithinPointTwoSecondsOfTheTarget() throws {
        let result = try LiveFixtures.run(ScriptedStrategy(levels: [2]), trace: LiveFixtures.trace([(1200, 60)]))
        #expect(result.stallCount == 0)
        #expect(result.rebufferSeconds == 0)
        #expect(result.segments.count == 120)
        let settled = result.liveChunks.filter { $0.sessionSeconds >= 10 }
        #expect(settled.count > 1000)
        for sample in settled {
            #expect(abs(sample.latencySeconds - Self.target) <= 0.2, "latency \(sample.latencySeconds) s at \(sample.sessionSeconds) s")
        }
        #expect(result.segments.allSatisfy { $0.level == 2 })
    }

    /// SPIKE is 1200·10 s, 300·10 s, 800·10 s. Looped, it returns to 1200 for only 10 s, and at
    /// 1228.8 kbps against a 1000 kbps top level the player gains at most 0.23 s of media per
    /// second, so the ~8.8 s of latency a spike builds cannot be taken back in one 10 s window;
    /// the recovery is checked on SPIKE followed by 60 s at 1200 instead.
    @Test func spikeStallsAnAlwaysTopPlayerAndCatchUpRecovers() throws {
        let trace = try LiveFixtures.trace([(1200, 10), (300, 10), (800, 10), (1200, 60)], name: "spike_then_1200")
        let result = try LiveFixtures.run(ScriptedStrategy(levels: [2]), trace: trace)
        #expect(result.stallCount > 0)
        #expect(result.rebufferSeconds > 5)
        func latency(at seconds: Double) -> Double {
            result.liveChunks.last { $0.sessionSeconds <= seconds }!.latencySeconds
        }
        // Below the top bitrate from 10 s to 30 s: latency keeps growing.
        #expect(abs(latency(at: 10) - Self.target) <= 0.2)
        #expect(latency(at: 15) > latency(at: 10) + 1)
        #expect(latency(at: 20) > latency(at: 15) + 1)
        #expect(latency(at: 25) > latency(at: 20))
        #expect(latency(at: 30) > latency(at: 25))
        #expect(latency(at: 30) > 8)
        // Back above it: catch-up plays faster than real time and is within 0.2 s of the target
        // 40 s after the link recovered, and stays there.
        #expect(result.liveChunks.contains { $0.sessionSeconds > 30 && $0.playbackRate > 1.2 })
        let recovered = result.liveChunks.filter { $0.sessionSeconds >= 70 }
        #expect(!recovered.isEmpty)
        for sample in recovered {
            #expect(abs(sample.latencySeconds - Self.target) <= 0.2, "latency \(sample.latencySeconds) s at \(sample.sessionSeconds) s")
        }
    }

    /// Looped SPIKE: without dash.js's seek (maxDrift 0) latency only grows; with its 12 s
    /// maxDrift the player jumps back to the target latency once the drift passes 12 s,
    /// skipping the segments in between.
    @Test func spikeLoopedSeeksToTheLiveEdgePastMaxDrift() throws {
        let trace = try LiveFixtures.trace([(1200, 10), (300, 10), (800, 10)], name: "spike")
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(durationSeconds: 60, maxDriftSeconds: 0))
        var top = ScriptedStrategy(levels: [2])
        let drifting = try SessionEmulator(profile: profile).run(&top, strategyID: "top", trace: trace, video: LiveFixtures.video())
        #expect(drifting.segments.count == 120)
        #expect(drifting.segments.allSatisfy { $0.live?.seekedToLive == false })
        func latency(_ result: SessionResult, at seconds: Double) -> Double {
            result.liveChunks.last { $0.sessionSeconds <= seconds }!.latencySeconds
        }
        #expect(latency(drifting, at: 60) > latency(drifting, at: 30) + 3)

        let seeking = try LiveFixtures.run(ScriptedStrategy(levels: [2]), trace: trace, durationSeconds: 60)
        let seekRow = try #require(seeking.segments.firstIndex { $0.live!.seekedToLive })
        let seek = seeking.segments[seekRow]
        #expect(abs(seek.live!.latencySeconds - Self.target) < 1e-9)
        #expect(seeking.segments[seekRow + 1].index > seek.index + 1)
        #expect(seeking.segments.count < 120)
        let beforeSeek = seeking.liveChunks.filter { $0.segmentIndex <= seek.index }.map(\.latencySeconds).max()!
        #expect(beforeSeek > Self.target + 12 && beforeSeek < Self.target + 14)
        #expect(seeking.liveChunks.allSatisfy { $0.latencySeconds < Self.target + 14 })
        // NQoE scores each row from its own chunks, skipped segments having none.
        let scores = QoEModel(kind: .nqoe).segmentScores(seeking, ladder: try LiveFixtures.video().ladder)
        #expect(scores.count == seeking.segments.count)
        #expect(scores[seekRow + 1] != 0)
    }

    /// The lowest level at the live edge: each 0.5 s segment takes 0.5 s because the encoder
    /// produces it in real time, which over the whole download would read as 200 kbps; the
    /// chunk-based measure sees the 1228.8 kbps link.
    @Test func productionWaitsNeverCountAsLowThroughput() throws {
        var strategy = RecordingStrategy(level: 0)
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(durationSeconds: 30))
        let result = try SessionEmulator(profile: profile).run(
            &strategy, strategyID: "lowest", trace: LiveFixtures.trace([(1200, 30)]), video: LiveFixtures.video()
        )
        let link = 1200 * 1.024
        let atEdge = result.segments.filter { $0.downloadStartSeconds > 5 }
        #expect(atEdge.count > 40)
        for segment in atEdge {
            #expect(segment.downloadTimeSeconds > 0.45)
            #expect(segment.live!.productionWaitSeconds > 0.3)
            #expect(abs(segment.throughputKbps - link) < 1e-6 * link)
            #expect(abs(segment.estimateKbps - link) < 1e-3 * link)
        }
        for context in strategy.contexts.dropFirst() {
            #expect(context.throughputMethod == .chunk)
            #expect(abs(context.throughputEstimateKbps! - link) < 1e-6 * link)
        }
        #expect(strategy.records.allSatisfy { abs($0.throughputKbps - link) < 1e-6 * link })
        #expect(strategy.chunks.allSatisfy { $0.count == 15 })
    }

    @Test func chunksArriveNoEarlierThanTheyExist() throws {
        var strategy = RecordingStrategy(level: 2)
        _ = try SessionEmulator(profile: .live).run(
            &strategy, strategyID: "top", trace: LiveFixtures.trace([(300, 20)]), video: LiveFixtures.video()
        )
        for (record, chunks) in zip(strategy.records, strategy.chunks) {
            #expect(chunks.map(\.sizeBytes).reduce(0, +) == record.sizeBytes)
            for (index, chunk) in chunks.enumerated() {
                let mediaEnd = Double(record.segmentIndex) * 0.5 + Double(index + 1) * 0.5 / 15
                #expect(abs(chunk.availableSeconds - (mediaEnd - Self.target)) < 1e-9)
                #expect(chunk.firstByteSeconds >= chunk.availableSeconds - 1e-12)
                #expect(chunk.arrivalSeconds > chunk.firstByteSeconds)
            }
        }
    }

    @Test func contextCarriesTheLiveState() throws {
        var strategy = RecordingStrategy(level: 1)
        _ = try SessionEmulator(profile: .live).run(
            &strategy, strategyID: "mid", trace: LiveFixtures.trace([(1200, 10)]), video: LiveFixtures.video()
        )
        let first = try #require(strategy.contexts.first?.live)
        #expect(first.latencySeconds == Self.target && first.targetLatencySeconds == Self.target)
        #expect(first.playheadSeconds == 0 && abs(first.liveEdgeSeconds - Self.target) < 1e-9 && first.playbackRate == 1)
        #expect(abs(first.chunkDurationSeconds - 0.5 / 15) < 1e-15 && first.lastChunks.isEmpty)
        for context in strategy.contexts.dropFirst() {
            let live = try #require(context.live)
            #expect(live.lastChunks.count == 15)
            #expect(abs(live.latencySeconds - (live.liveEdgeSeconds - live.playheadSeconds)) < live.chunkDurationSeconds + 1e-9)
        }
        #expect(strategy.contexts.count == 20)
    }

    @Test func onDemandProfilesHaveNoLiveState() throws {
        var strategy = RecordingStrategy(level: 0)
        let result = try SessionEmulator(profile: EmulatorFixtures.idealProfile()).run(
            &strategy, strategyID: "low", trace: EmulatorFixtures.constantTrace(mbps: 5), video: EmulatorFixtures.video()
        )
        #expect(strategy.contexts.allSatisfy { $0.live == nil && $0.throughputMethod == .segment })
        #expect(result.liveChunks.isEmpty && result.liveChunkSeconds == nil)
        #expect(result.segments.allSatisfy { $0.live == nil })
    }

    @Test func strategyRateHoldsUntilTheNextDecisionAndIsCheckedAgainstTheProfile() throws {
        struct Fast: SessionStrategy {
            var rate: Double
            func chooseLevel(_ context: DecisionContext) -> Int { 0 }
            func decide(_ context: DecisionContext) -> RequestDecision { RequestDecision(level: 0, playbackRate: rate) }
        }
        let trace = try LiveFixtures.trace([(1200, 20)])
        let result = try LiveFixtures.run(Fast(rate: 0.9), trace: trace)
        #expect(result.liveChunks.dropFirst().allSatisfy { $0.playbackRate == 0.9 })
        #expect(throws: EmulationError.self) { try LiveFixtures.run(Fast(rate: 2.5), trace: trace) }
        var onDemand = Fast(rate: 1.1)
        #expect(throws: EmulationError.self) {
            try SessionEmulator(profile: .default).run(&onDemand, strategyID: "fast", trace: trace, video: LiveFixtures.video())
        }
    }

    @Test func sessionsAreDeterministic() throws {
        let trace = try LiveFixtures.trace([(500, 0.25), (1200, 5), (500, 0.1), (1200, 1), (500, 0.25), (1200, 5)])
        let first = try LiveFixtures.run(ScriptedStrategy(levels: [2, 1, 0, 2]), trace: trace, durationSeconds: 40)
        let second = try LiveFixtures.run(ScriptedStrategy(levels: [2, 1, 0, 2]), trace: trace, durationSeconds: 40)
        #expect(first.segments == second.segments)
        #expect(first.liveChunks == second.liveChunks)
        #expect(first.segments.count == 80)
    }

    @Test(arguments: [(0.5, 15, 300), (4.0, 120, 38), (0.01, 1, 15_000)])
    func settingsSplitSegmentsIntoWholeChunks(segmentSeconds: Double, chunks: Int, segmentsOver150s: Int) {
        let settings = LiveSettings()
        #expect(settings.chunksPerSegment(segmentSeconds: segmentSeconds) == chunks)
        #expect(settings.segmentCount(segmentSeconds: segmentSeconds, traceSeconds: 150) == segmentsOver150s)
    }
}
