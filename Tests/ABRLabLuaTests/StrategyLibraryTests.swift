import ABRLab
import ABRLabLua
import Foundation
import Testing

/// The scripts shipped in `Strategies/`: each passes the conformance checks, and those with a
/// native twin or a published total reproduce it.
@Suite struct StrategyLibraryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = packageRoot.appendingPathComponent("Strategies").path
    static let datasets = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets")
    static var hasDatasets: Bool { FileManager.default.fileExists(atPath: datasets.path) }

    static var scriptIDs: [String] {
        ((try? LuaStrategyLoader().discover(folder: folder)) ?? []).map(\.id)
    }

    static func script(_ id: String, overrides: [String: String] = [:]) throws -> LuaScript {
        try LuaStrategyLoader(overrides: [id: overrides]).load(path: "\(folder)/\(id).lua")
    }

    @Test func theLibraryHasEveryStrategy() {
        #expect(Self.scriptIDs == ["bba", "bola", "conservative", "dynamic", "festive", "rb", "robust_mpc", "throughput"])
    }

    @Test(arguments: scriptIDs)
    func everyScriptConforms(id: String) throws {
        let report = try StrategyConformance().check(try Self.script(id).descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    @Test(arguments: ["_template"])
    func theTemplateConforms(id: String) throws {
        let report = try StrategyConformance().check(try Self.script(id).descriptor())
        #expect(report.passed, "\(report.findings)")
    }

    /// Lua and native twins choose the same levels on every conformance trace.
    @Test(arguments: [
        ("bba", "bba-native"), ("conservative", "conservative"), ("robust_mpc", "robust_mpc-native"),
    ])
    func scriptsMatchTheirNativeTwins(script id: String, native nativeID: String) throws {
        let natives: [StrategyDescriptor] = [.conservative, .bufferBased, .robustMPC]
        var native = try #require(natives.first { $0.id == nativeID })
        if nativeID == "robust_mpc-native" {
            native = StrategyDescriptor(id: nativeID, name: "", description: "") { RobustMPCStrategy() }
        }
        let conformance = try StrategyConformance()
        let lua = try Self.script(id).descriptor()
        for trace in conformance.traces {
            let a = try conformance.emulator.run(strategy: try lua.makeStrategy(), strategyID: id, trace: trace, video: conformance.video)
            let b = try conformance.emulator.run(strategy: try native.makeStrategy(), strategyID: nativeID, trace: trace, video: conformance.video)
            #expect(a.segments == b.segments, "\(trace.name)")
            #expect(a.transitions == b.transitions, "\(trace.name)")
        }
    }

    static func pensieveTotal(script: LuaScript, trace: String) throws -> Double {
        let video = try VideoLoader.load(
            datasets.appendingPathComponent("pensieve/video_sizes"),
            ladderKbps: VideoPreset.pensieveLadderKbps, segmentDurationSeconds: 4
        )
        let loaded = try TraceLoader.load(datasets.appendingPathComponent("pensieve/cooked_test_traces/\(trace)"))
        var strategy = LuaStrategy(script: script)
        let result = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: script.id, trace: loaded.trace, video: video)
        return SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
    }

    @Test(.enabled(if: hasDatasets, "public datasets not found at ../shared/datasets; skipped"), arguments: [
        ("norway_bus_1", 77.88468025140871), ("norway_ferry_1", 45.33013048762693), ("norway_tram_1", -10.142064899823106),
    ])
    func bbaReproducesPensieve(trace: String, expected: Double) throws {
        #expect(abs(try Self.pensieveTotal(script: try Self.script("bba"), trace: trace) - expected) < 1e-9)
    }

    @Test(.enabled(if: hasDatasets, "public datasets not found at ../shared/datasets; skipped"))
    func robustMPCReproducesPensieveWithItsLookahead() throws {
        let script = try Self.script("robust_mpc", overrides: ["lookahead_offset": "1"])
        #expect(abs(try Self.pensieveTotal(script: script, trace: "norway_bus_1") - 94.1626876599077) < 1e-9)
    }
}
