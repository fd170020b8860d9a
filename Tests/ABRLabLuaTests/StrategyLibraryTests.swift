import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The scripts shipped in `Strategies/`: each passes the conformance checks, and those with a
/// native twin or a published total reproduce it.
@Suite(.tags(.lua), .selectedByTags) struct StrategyLibraryTests {
    static let packageRoot = PackageRoot.url
    static let folder = packageRoot.appendingPathComponent("Strategies").path

    static var scriptIDs: [String] {
        ((try? LuaStrategyLoader().discover(folder: folder)) ?? []).map(\.id)
    }

    static func script(_ id: String, overrides: [String: String] = [:]) throws -> LuaScript {
        try LuaStrategyLoader(overrides: [id: overrides]).load(path: "\(folder)/\(id).lua")
    }

    @Test func theLibraryHasEveryStrategy() {
        #expect(Self.scriptIDs == ["bba", "bola", "conservative", "dynamic", "festive", "pensieve", "rb", "robust_mpc", "throughput"])
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

    /// Lua and native twins choose the same levels on every conformance trace, each with its
    /// defaults.
    @Test(arguments: [
        ("bba", "bba-native"), ("conservative", "conservative"), ("robust_mpc", "robust_mpc-native"),
        ("pensieve", "pensieve-native"),
    ])
    func scriptsMatchTheirNativeTwins(script id: String, native nativeID: String) throws {
        let pensieve = StrategyDescriptor.pensieve(defaultModelPath: "\(Self.folder)/models/pensieve.safetensors")
        let natives: [StrategyDescriptor] = [.conservative, .bufferBased, .robustMPC, pensieve]
        let native = try #require(natives.first { $0.id == nativeID })
        let conformance = try StrategyConformance()
        let lua = try Self.script(id).descriptor()
        for trace in conformance.traces {
            let a = try conformance.emulator.run(strategy: try lua.makeStrategy(), strategyID: id, trace: trace, video: conformance.video)
            let b = try conformance.emulator.run(strategy: try native.makeStrategy(), strategyID: nativeID, trace: trace, video: conformance.video)
            #expect(a.segments == b.segments, "\(trace.name)")
            #expect(a.transitions == b.transitions, "\(trace.name)")
        }
    }

    /// A native strategy declares its Lua twin's parameters with the same defaults (levels
    /// 1-based in both); only how the script runs its search is the script's own.
    @Test(arguments: [
        ("bba", "bba-native"), ("conservative", "conservative"), ("robust_mpc", "robust_mpc-native"),
        ("pensieve", "pensieve-native"),
    ])
    func twinsDeclareTheSameDefaults(script id: String, native nativeID: String) throws {
        let pensieve = StrategyDescriptor.pensieve(defaultModelPath: "\(Self.folder)/models/pensieve.safetensors")
        let native = try #require([StrategyDescriptor.conservative, .bufferBased, .robustMPC, pensieve].first { $0.id == nativeID })
        func number(_ value: StrategyParamValue) -> String {
            switch value {
            case .integer(let integer): "\(Double(integer))"
            case .number(let number): "\(number)"
            default: value.description
            }
        }
        let lua = try Self.script(id).descriptor().params
        let shared = native.params.filter { param in param.key != "model" }
        #expect(lua.map(\.key) == shared.map(\.key))
        #expect(lua.map { number($0.value) } == shared.map { number($0.value) })
    }

    /// robust_mpc.lua (through ctx:mpc_search) and robust_mpc-native choose alike on larger
    /// ladders too, horizons and look-aheads included: the script passes ctx's state to the
    /// search exactly as the native strategy does.
    @Test(arguments: [(6, "3", "0"), (10, "5", "1"), (8, "6", "2")])
    func robustMPCMatchesItsTwinOnLargeLadders(levels: Int, horizon: String, offset: String) throws {
        var conformance = try StrategyConformance()
        var generator = SyntheticVideoGenerator()
        generator.ladderKbps = Array([230.0, 331, 477, 688, 991, 1427, 2056, 2962, 4267, 6000].suffix(levels))
        generator.segmentCount = 30
        conformance.video = try generator.generate(name: "ladder\(levels)")
        let settings = ["horizon": horizon, "lookahead_offset": offset]
        let lua = try Self.script("robust_mpc", overrides: settings).descriptor()
        let native = try StrategyDescriptor.robustMPC.configured(settings)
        for trace in conformance.traces {
            let a = try conformance.emulator.run(strategy: try lua.makeStrategy(), strategyID: "robust_mpc", trace: trace, video: conformance.video)
            let b = try conformance.emulator.run(strategy: try native.makeStrategy(), strategyID: "robust_mpc-native", trace: trace, video: conformance.video)
            #expect(a.segments == b.segments, "\(trace.name)")
        }
    }

    /// The search counts against the budget: a script calling it forever stops.
    @Test func nativeSearchCannotEscapeTheBudget() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-mpc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("spin.lua").path
        try """
            return { choose = function(ctx)
              if ctx.last_level == nil then return 1 end
              while true do pcall(ctx.mpc_search, ctx, 0.5, 5) end
            end }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let script = try LuaStrategyLoader().load(path: path)
        let report = try StrategyConformance().check(script.descriptor())
        #expect(report.findings.contains { $0.message.contains("exceeded the budget") }, "\(report.findings)")
    }

    static func pensieveTotal(script: LuaScript, trace: String) throws -> Double {
        let video = try VideoLoader.load(
            Datasets.url("pensieve/video_sizes"),
            ladderKbps: VideoPreset.pensieveLadderKbps, segmentDurationSeconds: 4
        )
        let loaded = try TraceLoader.load(Datasets.url("pensieve/cooked_test_traces/\(trace)"))
        var strategy = LuaStrategy(script: script)
        let result = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: script.id, trace: loaded.trace, video: video)
        return SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
    }

    @Test(.tags(.datasets, .reference), .needsDatasets, arguments: [
        ("norway_bus_1", 77.88468025140871), ("norway_ferry_1", 45.33013048762693), ("norway_tram_1", -10.142064899823106),
    ])
    func bbaReproducesPensieve(trace: String, expected: Double) throws {
        #expect(abs(try Self.pensieveTotal(script: try Self.script("bba"), trace: trace) - expected) < 1e-9)
    }

    /// Pensieve's look-ahead is the default.
    @Test(.tags(.datasets, .reference), .needsDatasets)
    func robustMPCReproducesPensieveByDefault() throws {
        #expect(abs(try Self.pensieveTotal(script: try Self.script("robust_mpc"), trace: "norway_bus_1") - 94.1626876599077) < 1e-9)
    }
}
