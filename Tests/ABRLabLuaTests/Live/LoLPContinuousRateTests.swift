import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// LoL+'s rate through a 2 s outage, set at every playback update (`continuous_rate`, through
/// `on_playback`) against by hand. Target 1.5 s; 10 s at 10⁹ bit/s settle the latency within
/// LoL+'s 2 % of the target, where its rate is 1 and the buffer holds b₀ ≈ 1.5 s; then nothing
/// arrives for 2 s. Above LoL+'s minimum buffer of 0.5 s the rate stays 1, so the buffer drains
/// to 0.5 s in b₀ − 0.5 s; below it the rate follows r(b) = 0.5 + 1/(1 + e^(−5(b − 0.5))), so
/// dt = db / r(b) and the drain from 0.5 s to empty takes ∫₀^0.5 db / r(b) = 0.6890 s (the
/// integrand by the midpoint rule, 10⁵ steps). The stall is 2 − (b₀ − 0.5) − 0.689 ≈ 0.31 s;
/// updated only at decisions (none come during the outage) the rate stays 1 and the stall is
/// 2 − b₀ ≈ 0.5 s. Updates every 33 ms and dash.js's minimum rate change of 0.02 cost a few
/// milliseconds against the integral.
@Suite(.tags(.lua), .selectedByTags) struct LoLPContinuousRateTests {
    static let drainBelowMinimumSeconds = 0.6890263173040688

    static func play(continuous: Bool) throws -> SessionResult {
        let trace = try NetworkTrace(name: "outage", periods: [
            TracePeriod(durationSeconds: 10.001, bandwidthBitsPerSecond: 1e9), TracePeriod(durationSeconds: 2, bandwidthBitsPerSecond: 0),
            TracePeriod(durationSeconds: 8, bandwidthBitsPerSecond: 1e9),
        ])
        let script = try LiveStrategyTests.script("lolp", overrides: ["continuous_rate": continuous ? "true" : "false"])
        return try SessionEmulator(profile: .live).run(
            strategy: script.makeStrategy(), strategyID: "lolp", trace: trace, video: try LiveStrategyTests.video(), seed: 1
        )
    }

    /// The buffer when the outage began: after the last chunk that arrived before it.
    static func bufferAtOutage(_ result: SessionResult) throws -> Double {
        let last = try #require(result.liveChunks.last { $0.sessionSeconds < 10.001 })
        #expect(abs(last.latencySeconds - 1.5) <= 0.03, "latency \(last.latencySeconds) off LoL+'s band at the outage")
        // A chunk ends at the live edge when it arrives, so the buffer is the latency, less the time since.
        return last.latencySeconds - (10.001 - last.sessionSeconds)
    }

    @Test func aContinuousRateStallsAsTheIntegralSays() throws {
        let result = try Self.play(continuous: true)
        let b0 = try Self.bufferAtOutage(result)
        let expected = 2 - (b0 - 0.5) - Self.drainBelowMinimumSeconds
        #expect(abs(expected - 0.31) < 0.04)
        let stall = result.liveChunks.filter { $0.sessionSeconds > 10 && $0.sessionSeconds < 13 }.reduce(0) { $0 + $1.rebufferSeconds }
        #expect(abs(stall - expected) < 0.015, "stall \(stall) s, by hand \(expected) s")
        // The slow-down shows in the rate at the first chunk after the outage: close to r(0).
        let after = try #require(result.liveChunks.first { $0.sessionSeconds > 12.001 })
        #expect(abs(after.playbackRate - 0.5758581800212436) < 0.02)
    }

    @Test func ratesSetAtDecisionsOnlyStallTheWholeOutageLessTheBuffer() throws {
        let result = try Self.play(continuous: false)
        let b0 = try Self.bufferAtOutage(result)
        let stall = result.liveChunks.filter { $0.sessionSeconds > 10 && $0.sessionSeconds < 13 }.reduce(0) { $0 + $1.rebufferSeconds }
        #expect(abs(stall - (2 - b0)) < 0.015, "stall \(stall) s, by hand \(2 - b0) s")
    }
}
