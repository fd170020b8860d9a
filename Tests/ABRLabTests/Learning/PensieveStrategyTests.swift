import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct PensieveStrategyTests {
    static let model = ActorNetworkTests.shippedModel
    static let descriptor = StrategyDescriptor.pensieve(defaultModelPath: model)

    @Test func declaresTypedParametersWithDefaults() {
        #expect(Self.descriptor.id == "pensieve-native")
        #expect(Self.descriptor.params.map(\.key) == ["action", "model", "seed"])
        #expect(Self.descriptor.params.map(\.value) == [.string("sampled"), .string(Self.model), .integer(42)])
    }

    @Test(arguments: [
        (["action": "greedy"], "param: parameter pensieve-native.action needs sampled or argmax, not 'greedy'"),
        (["seed": "1.5"], "param: parameter pensieve-native.seed needs an integer, not '1.5'"),
        (["seed": "-1"], "param: parameter pensieve-native.seed needs an integer from 0 to 4294967295 (numpy's seed range), not -1"),
        (["temperature": "2"], "param: unknown parameter 'temperature' in pensieve-native.temperature=2; parameters are action, model, seed"),
        (["model": "/nonexistent/x.safetensors"], "/nonexistent/x.safetensors: no such file"),
    ])
    func badParametersAreOneError(values: [String: String], expected: String) {
        #expect(Self.failure { _ = try Self.descriptor.configured(values) } == expected)
    }

    @Test func aModelWhoseActionsAreNotTheLaddersLevelsEndsTheSession() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-pensieve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("genet.safetensors").path
        try Data(SafetensorsFile.encode(ActorFixture.tensors(ActorFixture.Shape()))).write(to: URL(fileURLWithPath: path))
        let descriptor = try Self.descriptor.configured(["model": path])
        let video = try PensieveStateTests.video()
        let trace = try NetworkTrace(name: "flat", periods: [TracePeriod(durationSeconds: 1, bandwidthBitsPerSecond: 3_000_000)])
        let message = Self.failure {
            _ = try SessionEmulator(profile: .pensieve, segmentsToPlay: 3).run(strategy: try descriptor.makeStrategy(), strategyID: "p", trace: trace, video: video)
        }
        #expect(message?.contains("\(path): the model has 3 actions but the video has 6 levels; pensieve-native plays action i as level i") == true)
        // Asked before any session, it says the same without playing.
        let setting = RunSetting(emulator: SessionEmulator(profile: .pensieve, segmentsToPlay: 3), video: video)
        #expect(try descriptor.fit(setting) == .unfit(reason: "the model has 3 actions but the video has 6 levels; pensieve-native plays action i as level i"))
        #expect(try Self.descriptor.fit(setting) == .fits)
    }

    @Test func anUnconfiguredDescriptorBuildsItsDefaultsOnce() throws {
        let video = try PensieveStateTests.video()
        let trace = try NetworkTrace(name: "flat", periods: [TracePeriod(durationSeconds: 1, bandwidthBitsPerSecond: 3_000_000)])
        let emulator = SessionEmulator(profile: .pensieve, segmentsToPlay: 3)
        let first = try emulator.run(strategy: try Self.descriptor.makeStrategy(), strategyID: "p", trace: trace, video: video)
        let second = try emulator.run(strategy: try Self.descriptor.makeStrategy(), strategyID: "p", trace: trace, video: video)
        #expect(first.segments.map(\.level) == second.segments.map(\.level))
        #expect(first.segments[0].level == 1)
    }

    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return String(describing: error)
        }
    }
}

/// Pensieve's agent on its own test set, against the issue's totals and the independent numpy
/// reference (PensieveReferenceFixture, made by scripts/pensieve-reference).
@Suite(.tags(.core, .datasets, .reference), .selectedByTags, .needsDatasets)
struct PensieveAgentAcceptanceTests {
    static func play(_ action: PensieveStrategy.Action, trace name: String, video: Video, network: ActorNetwork) throws -> (Double, String) {
        let trace = try TraceLoader.load(Datasets.url("pensieve/cooked_test_traces/\(name)")).trace
        var strategy = PensieveStrategy(network: network, action: action, seed: 42)
        let result = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: "pensieve-native", trace: trace, video: video)
        let total = SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
        return (total, result.segments.map { String($0.level) }.joined())
    }

    @Test(arguments: [
        ("norway_bus_1", PensieveStrategy.Action.sampled, 105.0846802514087),
        ("norway_ferry_1", .sampled, 57.60219091399021),
        ("norway_tram_1", .sampled, -4.362614672509241),
        ("norway_bus_1", .argmax, 108.6346802514087),
        ("norway_ferry_1", .argmax, 44.9054931251209),
        ("norway_tram_1", .argmax, -1.0126146725092409),
    ])
    func totalsMatchTheIssue(trace: String, action: PensieveStrategy.Action, expected: Double) throws {
        let network = try ActorNetwork(contentsOf: PensieveStrategyTests.model)
        let (total, _) = try Self.play(action, trace: trace, video: try PensieveAcceptanceTests.video(), network: network)
        #expect(abs(total - expected) < 1e-9)
    }

    @Test func everyTestTraceMatchesTheNumpyReference() throws {
        let network = try ActorNetwork(contentsOf: PensieveStrategyTests.model)
        let video = try PensieveAcceptanceTests.video()
        #expect(PensieveReferenceFixture.traces.count == 142)
        var sums = (sampled: 0.0, argmax: 0.0)
        for reference in PensieveReferenceFixture.traces {
            let sampled = try Self.play(.sampled, trace: reference.name, video: video, network: network)
            let argmax = try Self.play(.argmax, trace: reference.name, video: video, network: network)
            #expect(sampled.1 == reference.sampledLevels, "\(reference.name) sampled")
            #expect(argmax.1 == reference.argmaxLevels, "\(reference.name) argmax")
            #expect(abs(sampled.0 - reference.sampledTotal) < 1e-9, "\(reference.name)")
            #expect(abs(argmax.0 - reference.argmaxTotal) < 1e-9, "\(reference.name)")
            sums.sampled += sampled.0
            sums.argmax += argmax.0
        }
        // The spec's means over the 142 traces.
        #expect(abs(sums.sampled / 142 - 27.5626) < 5e-5)
        #expect(abs(sums.argmax / 142 - 27.6541) < 5e-5)
    }
}
