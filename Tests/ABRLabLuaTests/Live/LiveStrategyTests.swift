import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// LoL+ and L2A-LL (Strategies/live) as strategies: the conformance checks, and sessions under
/// the live profile on the five Twitch challenge patterns (Traces/twitch-ll).
@Suite(.tags(.lua), .selectedByTags) struct LiveStrategyTests {
    static let root = LiveStrategyMathTests.packageRoot
    static let folder = root.appendingPathComponent("Strategies/live").path
    static let ids = ["l2a", "lolp"]
    static let patterns = ["cascade", "fast_jitters", "intra_cascade", "slow_jitters", "spike"]

    static func script(_ id: String, overrides: [String: String] = [:]) throws -> LuaScript {
        try LuaStrategyLoader(overrides: [id: overrides]).load(path: "\(folder)/\(id).lua")
    }

    static func trace(_ pattern: String) throws -> NetworkTrace {
        try TraceLoader.load(root.appendingPathComponent("Traces/twitch-ll/\(pattern).csv")).trace
    }

    static func video() throws -> Video {
        try VideoPreset.twitchLL.video()
    }

    static func play(_ id: String, _ pattern: String, seed: UInt64 = 1, overrides: [String: String] = [:]) throws -> SessionResult {
        let script = try script(id, overrides: overrides)
        return try SessionEmulator(profile: .live).run(
            strategy: script.makeStrategy(), strategyID: id, trace: try trace(pattern), video: try video(), seed: seed
        )
    }

    /// Scanning the folder finds the three strategies; the modules under lib/ are not taken for ones.
    @Test func theFolderHoldsTheLiveStrategies() throws {
        #expect(try LuaStrategyLoader().discover(folder: Self.folder).map(\.id) == ["l2a", "ll-throughput", "lolp"])
    }

    @Test(arguments: ids)
    func conforms(id: String) throws {
        let report = try StrategyConformance().check(try Self.script(id).descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    /// The same checks on the live profile, with the Twitch challenge's video: levels in range,
    /// same seed same session, and dead links end with the emulator's error.
    @Test(arguments: ids)
    func conformsOnTheLiveProfile(id: String) throws {
        var conformance = try StrategyConformance()
        conformance.emulator = SessionEmulator(profile: .live)
        conformance.video = try Self.video()
        let report = conformance.check(try Self.script(id).descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    /// Every pattern plays to its end: levels in range, and the same seed gives the same session.
    @Test(arguments: ids, patterns)
    func playsEveryPattern(id: String, pattern: String) throws {
        let a = try Self.play(id, pattern)
        let b = try Self.play(id, pattern)
        #expect(a.segments == b.segments)
        #expect(!a.segments.isEmpty)
        #expect(a.segments.allSatisfy { (0..<3).contains($0.level) })
        #expect(a.segments.allSatisfy { $0.live != nil })
    }

    /// CASCADE: 1228.8, 819.2, 409.6, 819.2 and 1228.8 kbps for 30 s each. While the link is at
    /// 409.6 kbps (from 60 s; 5 s to react) both stay mostly on the 200 kbps level, and once it
    /// is back at 1228.8 kbps (from 120 s; 5 s to react) they reach the 1000 kbps level again.
    @Test(arguments: ids)
    func stepsDownAndRecoversOnCascade(id: String) throws {
        let session = try Self.play(id, "cascade")
        let low = session.segments.filter { $0.downloadStartSeconds >= 65 && $0.downloadStartSeconds < 90 }
        let high = session.segments.filter { $0.downloadStartSeconds >= 125 }
        let lowMean = low.map(\.bitrateKbps).reduce(0, +) / Double(max(low.count, 1))
        #expect(!low.isEmpty && lowMean <= 400, "mean bitrate \(lowMean) kbps at 409.6 kbps")
        #expect(high.contains { $0.level == 2 }, "levels after 125 s: \(high.map(\.level))")
    }

    /// On CASCADE the buffer reaches L2A's B_target (1.5 s) and its learner takes over from the
    /// start-up rule: the session differs from one that never leaves start-up.
    @Test func l2aLearnerTakesOver() throws {
        let learning = try Self.play("l2a", "cascade").segments.map(\.level)
        let startupOnly = try Self.play("l2a", "cascade", overrides: ["b_target_s": "1000"]).segments.map(\.level)
        #expect(learning != startupOnly)
    }

    /// `estimate=profile` decides on the profile's estimate (an EWMA here) instead of dash.js's
    /// sliding window, and plays a different session.
    @Test(arguments: ids)
    func theProfileEstimateIsAnOption(id: String) throws {
        let dashjs = try Self.play(id, "cascade").segments.map(\.level)
        let profile = try Self.play(id, "cascade", overrides: ["estimate": "profile"]).segments.map(\.level)
        #expect(dashjs != profile)
    }

    /// LoL+ sets the rate itself, within its bounds of 1 ± 0.5, and acts: on SPIKE the rate
    /// leaves 1 when the latency grows.
    @Test func lolpRateStaysInItsBounds() throws {
        for pattern in Self.patterns {
            let rates = try Self.play("lolp", pattern).segments.compactMap { $0.live?.playbackRate }
            #expect(rates.allSatisfy { $0 >= 0.5 && $0 <= 1.5 }, "\(pattern)")
        }
        let spike = try Self.play("lolp", "spike").segments.compactMap { $0.live?.playbackRate }
        #expect(spike.contains { $0 != 1 })
        let playerRates = try Self.play("lolp", "spike", overrides: ["rate_control": "false"]).segments.compactMap { $0.live?.playbackRate }
        #expect(playerRates != spike, "with rate_control=false the player's catch-up sets the rate")
    }
}
