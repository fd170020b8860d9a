import ABRLab
import EngineFixtures
import Foundation
import Testing
import TestSupport

/// dash.js 3.0.1's catch-up (`--catchup dashjs3`) against numbers worked out by hand from
/// `PlaybackController.js`: target 1 s, liveCatchUpMinDrift 0.05 s, cpr 0.5.
@Suite(.tags(.core), .selectedByTags) struct CatchupRuleTests {
    static func curve(_ drift: Double) -> Double { 0.5 + 1 / (1 + exp(-5 * drift)) }

    /// Within the dead band the rate is exactly 1, from any rate; latencies are whole
    /// milliseconds first, so 1.0494 s is inside it and 1.051 s outside. Exactly 1.050 s is
    /// outside too: 1.05 − 1 is 0.050000000000000044 in doubles, in JavaScript as here.
    @Test(arguments: [
        (1.0, 1.3, 1.0), (1.04, 1.0, 1.0), (0.96, 1.2, 1.0), (1.049, 1.0, 1.0), (1.0494, 0.9, 1.0),
        (1.05, 1.0, curve(1.05 - 1)), (1.051, 1.0, curve(0.051)), (1.2, 1.0, curve(0.2)), (0.8, 1.0, curve(0.8 - 1)),
        // A new rate within 0.02 of the current one is not applied (strictly more is needed).
        (1.2, curve(0.2) + 0.019, curve(0.2) + 0.019), (1.2, 1.22, 1.22),
    ])
    func deadBandAndCurve(latency: Double, current: Double, expected: Double) {
        var controller = CatchupController(rule: .dashjs3(minDriftSeconds: 0.05))
        let rate = controller.rate(current: current, latencySeconds: latency, targetSeconds: 1, bufferSeconds: 1)
        #expect(abs(rate - expected) < 1e-12, "latency \(latency): \(rate), not \(expected)")
        if expected == 1 { #expect(rate == 1) }
    }

    /// dash.js 5 has no dead band: 40 ms over the target moves the rate off 1.
    @Test func dashjs5HasNoDeadBand() {
        var controller = CatchupController()
        #expect(controller.rate(current: 1, latencySeconds: 1.04, targetSeconds: 1, bufferSeconds: 1) == Self.curve(0.04))
    }

    /// An empty buffer resets the rate to 1; while the latency is over the target and at most
    /// half the target is buffered it stays 1; under the target the curve slows down even then;
    /// more than half the target buffered ends the hold.
    @Test func stallHandling() {
        var controller = CatchupController(rule: .dashjs3(minDriftSeconds: 0.05))
        #expect(controller.bufferDidEmpty() == 1)
        #expect(controller.rate(current: 1, latencySeconds: 1.5, targetSeconds: 1, bufferSeconds: 0.5) == 1)
        #expect(controller.recovering)
        #expect(controller.rate(current: 1, latencySeconds: 0.8, targetSeconds: 1, bufferSeconds: 0.1) == Self.curve(0.8 - 1))
        #expect(controller.rate(current: 1, latencySeconds: 1.5, targetSeconds: 1, bufferSeconds: 0.51) == Self.curve(0.5))
        #expect(!controller.recovering)
        var five = CatchupController()
        #expect(five.bufferDidEmpty() == nil)
    }
}

/// A session through a 1.1 s outage under `dashjs3`, worked out by hand. twitch-ll's lowest
/// level (833- and 834-byte chunks) on a 10⁹ bit/s link with no bandwidth from 2.01 s to
/// 3.11 s; target 1 s. The first chunk arrives at 834·8/10⁹ s and playback starts then, so
/// the latency is 1 s + 6.672 µs, 1.000 s to the millisecond: rate exactly 1. The chunk ending
/// at media 3.0 s exists from 2.0 s and arrives before the outage; the next one exists from
/// 2.0333 s, inside it, and arrives at 3.11 s + 834·8/10⁹ s. The playhead reaches 3.0 s at
/// 3.0 s + 6.672 µs and stalls 0.11 s (both chunks are 834 bytes). The chunks made meanwhile arrive in a burst;
/// once more than 0.5 s is buffered the hold ends at latency 1.110 s, and the rate becomes
/// 0.5 + 1/(1 + e^(−0.55)). From then on, whenever the latency is within 50 ms of the target
/// the next rate is exactly 1, and the latency settles inside the band, above the target.
@Suite(.tags(.core), .selectedByTags) struct CatchupDeadBandSessionTests {
    static func run(_ rule: CatchupRule) throws -> SessionResult {
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(targetLatencySeconds: 1, catchUpRule: rule, maxDriftSeconds: rule.defaultMaxDriftSeconds))
        let trace = try NetworkTrace(name: "outage", periods: [
            TracePeriod(durationSeconds: 2.01, bandwidthBitsPerSecond: 1e9), TracePeriod(durationSeconds: 1.1, bandwidthBitsPerSecond: 0),
            TracePeriod(durationSeconds: 16.89, bandwidthBitsPerSecond: 1e9),
        ])
        var lowest = ScriptedStrategy(levels: [0])
        return try SessionEmulator(profile: profile).run(&lowest, strategyID: "low", trace: trace, video: LiveFixtures.video())
    }

    @Test func theRateHoldsAtExactlyOneInsideTheDeadBand() throws {
        let result = try Self.run(.dashjs3(minDriftSeconds: 0.05))
        let chunks = result.liveChunks
        #expect(result.stallCount == 1)
        #expect(abs(result.rebufferSeconds - 0.11) < 1e-9)
        #expect(chunks.filter { $0.sessionSeconds < 3 }.allSatisfy { $0.playbackRate == 1 })
        let firstAfter = try #require(chunks.first { $0.sessionSeconds > 3 })
        #expect(abs(firstAfter.sessionSeconds - (3.11 + 834.0 * 8 / 1e9)) < 1e-9)
        let caughtUp = try #require(chunks.first { $0.playbackRate > 1 })
        #expect(abs(caughtUp.playbackRate - CatchupRuleTests.curve(0.11)) < 1e-12)
        // Each rate the catch-up sets shows in the next chunk's sample.
        for (sample, next) in zip(chunks, chunks.dropFirst()) where abs((sample.latencySeconds * 1000).rounded() / 1000 - 1) <= 0.05 {
            #expect(next.playbackRate == 1, "latency \(sample.latencySeconds) at \(sample.sessionSeconds) s, next rate \(next.playbackRate)")
        }
        let settled = chunks.filter { $0.sessionSeconds > 8 }
        #expect(!settled.isEmpty)
        #expect(settled.allSatisfy { $0.playbackRate == 1 && $0.latencySeconds > 1 && $0.latencySeconds <= 1.0505 })
    }

    /// dash.js 5 on the same outage keeps adjusting inside the band: some rate there is not 1.
    @Test func dashjs5KeepsAdjustingInsideTheBand() throws {
        let result = try Self.run(.dashjs5)
        let inBand = result.liveChunks.filter { $0.sessionSeconds > 3.2 && abs($0.latencySeconds - 1) <= 0.05 }
        #expect(inBand.contains { $0.playbackRate != 1 })
    }
}
