import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `Strategies/pensieve.lua` against the issue's totals, and against `pensieve-native` on all of
/// Pensieve's test traces.
@Suite(.tags(.lua, .datasets, .reference), .selectedByTags, .needsDatasets)
struct PensieveScriptTests {
    static let native = StrategyDescriptor.pensieve(defaultModelPath: "\(StrategyLibraryTests.folder)/models/pensieve.safetensors")

    static func video() throws -> Video {
        try VideoLoader.load(
            Datasets.url("pensieve/video_sizes"),
            ladderKbps: VideoPreset.pensieveLadderKbps, segmentDurationSeconds: 4
        )
    }

    @Test(arguments: [
        ("norway_bus_1", "sampled", 105.0846802514087),
        ("norway_ferry_1", "sampled", 57.60219091399021),
        ("norway_tram_1", "sampled", -4.362614672509241),
        ("norway_bus_1", "argmax", 108.6346802514087),
        ("norway_ferry_1", "argmax", 44.9054931251209),
        ("norway_tram_1", "argmax", -1.0126146725092409),
    ])
    func totalsMatchTheIssue(trace: String, action: String, expected: Double) throws {
        let script = try StrategyLibraryTests.script("pensieve", overrides: ["action": action])
        #expect(abs(try StrategyLibraryTests.pensieveTotal(script: script, trace: trace) - expected) < 1e-9)
    }

    @Test(arguments: ["sampled", "argmax"])
    func theScriptChoosesWhatTheNativeStrategyChoosesOnEveryTestTrace(action: String) throws {
        let video = try Self.video()
        let lua = try StrategyLibraryTests.script("pensieve", overrides: ["action": action]).descriptor()
        let native = try Self.native.configured(["action": action])
        let traces = try TraceLoader.loadDirectory(Datasets.url("pensieve/cooked_test_traces")).map(\.trace)
        #expect(traces.count == 142)
        let emulator = SessionEmulator(profile: .pensieve)
        for trace in traces {
            let a = try emulator.run(strategy: try lua.makeStrategy(), strategyID: "pensieve", trace: trace, video: video)
            let b = try emulator.run(strategy: try native.makeStrategy(), strategyID: "pensieve-native", trace: trace, video: video)
            #expect(a.segments.map(\.level) == b.segments.map(\.level), "\(trace.name)")
            #expect(a.segments == b.segments, "\(trace.name)")
        }
    }
}
