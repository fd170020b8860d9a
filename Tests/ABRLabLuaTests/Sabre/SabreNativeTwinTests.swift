import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The native Sabre algorithms (`sabre/bola-native` …) play every session exactly as their
/// scripts in `Strategies/sabre` do — every segment row, transition and Sabre metric — so the
/// scripts' agreement with Sabre carries over to them.
@Suite(.tags(.lua), .selectedByTags) struct SabreNativeTwinTests {
    static let twins: [(script: String, native: StrategyDescriptor)] = [
        ("bola", .sabreBOLA), ("bolae", .sabreBOLAE), ("dynamic", .sabreDynamic), ("dynamicdash", .sabreDynamicDash),
        ("throughput", .sabreThroughput),
    ]

    static func twin(_ algorithm: String) throws -> StrategyDescriptor {
        try #require(twins.first { $0.script == algorithm }).native
    }

    static func script(_ algorithm: String, overrides: [String: String] = [:]) throws -> LuaScript {
        let path = SabreReference.packageRoot.appendingPathComponent("Strategies/sabre/\(algorithm).lua").path
        return try LuaStrategyLoader(overrides: [LuaStrategyLoader().id(forPath: path): overrides]).load(path: path)
    }

    /// Plays `trace` with the script and with its twin and expects the same session.
    static func expectSame(
        _ algorithm: String, overrides: [String: String] = [:], profile: EmulationProfile, trace: NetworkTrace, video: Video,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let emulator = SessionEmulator(profile: profile)
        let native = try twin(algorithm).configured(overrides)
        let lua = try script(algorithm, overrides: overrides).descriptor()
        let set = { (params: [StrategyParam]) in params.filter { overrides[$0.key] != nil }.map { "\($0.key)=\($0.value)" } }
        #expect(set(lua.params) == set(native.params) && set(lua.params).count == overrides.count, sourceLocation: sourceLocation)
        let a = try emulator.run(strategy: try lua.makeStrategy(), strategyID: algorithm, trace: trace, video: video)
        let b = try emulator.run(strategy: try native.makeStrategy(), strategyID: algorithm, trace: trace, video: video)
        // The first differing row, not two whole sessions, when they differ.
        let what = "\(algorithm) \(overrides) on \(trace.name)"
        let row = a.segments.indices.first { $0 < b.segments.count && a.segments[$0] != b.segments[$0] }
        #expect(row == nil && a.segments.count == b.segments.count, "\(what): segment \(row.map(String.init) ?? "count")", sourceLocation: sourceLocation)
        #expect(a.transitions == b.transitions, "\(what): transitions", sourceLocation: sourceLocation)
        #expect(a.playback == b.playback, "\(what): summary", sourceLocation: sourceLocation)
    }

    /// Variable links with outages and a ten-level, 3 s ladder like Sabre's `movie.json`.
    static func inputs() throws -> (traces: [NetworkTrace], video: Video) {
        var video = SyntheticVideoGenerator()
        video.ladderKbps = [230, 331, 477, 688, 991, 1427, 2056, 2962, 5027, 6000]
        video.segmentDurationSeconds = 3
        video.segmentCount = 80
        let traces = try [(1, 300.0, 4000.0, 0.0), (2, 200, 9000, 0.05), (3, 800, 3000, 0.02)].map { seed, low, high, outages in
            var generator = SyntheticTraceGenerator()
            generator.seed = UInt64(seed)
            generator.minKbps = low
            generator.maxKbps = high
            generator.outageProbability = outages
            generator.latencyMilliseconds = 80
            generator.latencyJitterMilliseconds = 40
            return try generator.generate(name: "synthetic-\(seed)")
        }
        return (traces, try video.generate(name: "ladder10"))
    }

    static func sabre(_ settings: SegmentBufferSettings, maxBufferSeconds: Double = 25) -> EmulationProfile {
        var profile = EmulationProfile.sabre
        profile.mechanics = .segmentBuffer(settings)
        profile.maxBufferSeconds = maxBufferSeconds
        return profile
    }

    static let profiles: [(String, EmulationProfile)] = [
        ("sabre", .sabre),
        ("replace left", sabre(SegmentBufferSettings(replacement: .left))),
        ("replace right, 60 s buffer", sabre(SegmentBufferSettings(replacement: .right), maxBufferSeconds: 60)),
        ("no abandonment, half bandwidth", sabre(SegmentBufferSettings(abandonment: false, bandwidthMultiplier: 0.5))),
        ("every check, 12 s buffer", sabre(SegmentBufferSettings(honoursRechecks: false), maxBufferSeconds: 12)),
        ("default", .default),
    ]

    @Test(arguments: twins.map(\.script), profiles.map(\.0))
    func nativesPlayAsTheirScripts(algorithm: String, profile name: String) throws {
        let profile = try #require(Self.profiles.first { $0.0 == name }).1
        let (traces, video) = try Self.inputs()
        for trace in traces {
            try Self.expectSame(algorithm, profile: profile, trace: trace, video: video)
        }
    }

    /// Every parameter the scripts take, set away from its default, plays alike too.
    @Test(arguments: [
        ("bola", ["basic": "true"]), ("bola", ["oscillation": "true", "gp": "2"]), ("bolae", ["ibr": "false"]),
        ("bolae", ["ibr": "false", "gp": "8", "oscillation": "true"]), ("throughput", ["ibr": "false", "safety": "0.7"]),
        ("throughput", ["abandon_multiplier": "1.2", "abandon_grace_s": "0.2"]), ("dynamic", ["threshold_s": "6"]),
        ("dynamicdash", ["low_s": "3", "high_s": "12"]),
    ])
    func parametersPlayAsInTheScripts(algorithm: String, overrides: [String: String]) throws {
        let (traces, video) = try Self.inputs()
        for trace in traces {
            try Self.expectSame(algorithm, overrides: overrides, profile: Self.sabre(SegmentBufferSettings(replacement: .left)), trace: trace, video: video)
        }
    }

    /// Twins declare the same parameters with the same defaults.
    @Test(arguments: twins.map(\.script))
    func twinsDeclareTheScriptsParameters(algorithm: String) throws {
        let lua = try Self.script(algorithm).descriptor().params
        let native = try Self.twin(algorithm).params
        #expect(lua.map(\.key) == native.map(\.key))
        #expect(lua.map(\.value) == native.map(\.value))
    }

    @Test(arguments: twins.map(\.native.id))
    func nativesPassTheConformanceCheck(id: String) throws {
        let descriptor = try #require(Self.twins.first { $0.native.id == id }).native
        let report = try StrategyConformance().check(descriptor)
        #expect(report.passed, "\(report.findings)")
    }

    @Test func aParameterThatIsNotFiniteIsRefused() {
        #expect(throws: InputError.self) { try StrategyDescriptor.sabreThroughput.configured(["safety": "inf"]) }
    }
}

/// The twins on Sabre's own 3G and 4G sets, every trace, and the sessions Sabre printed.
@Suite(.tags(.lua, .datasets, .reference, .scale), .selectedByTags, .needsDatasets("sabre"))
struct SabreNativeTwinDatasetTests {
    @Test(arguments: SabreProfileTests.sets.map(\.0))
    func everyTraceOfSabresSetsPlaysAsTheScripts(set: String) throws {
        let (_, folder, movie) = try #require(SabreProfileTests.sets.first { $0.0 == set })
        let video = try SabreReference.video(movie)
        let names = try FileManager.default.contentsOfDirectory(atPath: SabreReference.datasets.appendingPathComponent(folder).path).sorted()
        #expect(names.count == (set == "3g" ? 86 : 40))
        for name in names {
            let trace = try SabreReference.trace("\(folder)/\(name)")
            for algorithm in SabreReference.algorithms {
                try SabreNativeTwinTests.expectSame(algorithm, profile: .sabre, trace: trace, video: video)
            }
        }
    }

    /// Issue 30's two BOLA-E sessions after an abandonment, with Sabre's printed scores.
    @Test(arguments: [("report_tram_0008.json", 2.855851), ("report_bus_0008.json", 3.038548)])
    func bolaEAfterAnAbandonmentMatchesSabre(trace: String, score: Double) throws {
        var strategy = try SabreNativeTwinTests.twin("bolae").makeStrategy()
        let result = try SessionEmulator(profile: .sabre).run(
            &strategy, strategyID: "sabre/bolae-native", trace: SabreReference.trace("mmsys18/4Glogs/" + trace),
            video: SabreReference.video("mmsys18/bbb4k.json")
        )
        let playback = try #require(result.playback)
        #expect(abs(playback.timeAverageScore(gammaP: 5) - score) < 1e-6)
    }
}
