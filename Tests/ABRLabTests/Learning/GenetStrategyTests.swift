import ABRLab
import Foundation
import Testing
import TestSupport

/// `genet`: parameters, the relative actions at the ladder's ends, and whole sessions of
/// generated Genet-shaped actors whose choice is forced, checked by hand.
@Suite(.tags(.core), .selectedByTags) struct GenetStrategyTests {
    /// Output → level from the level just downloaded, 0-based, on a six-level ladder: down at
    /// the bottom stays at the bottom, up at the top stays at the top, all else moves by one.
    @Test(arguments: [
        (0, 0, 0), (1, 0, 0), (2, 0, 1),
        (0, 5, 4), (1, 5, 5), (2, 5, 5),
        (0, 3, 2), (1, 3, 3), (2, 3, 4),
        (0, 1, 0), (2, 4, 5),
    ])
    func stepsMoveOneLevelAndStopAtTheLaddersEnds(output: Int, lastLevel: Int, expected: Int) {
        #expect(PensieveStrategy.level(output: output, actions: .steps, lastLevel: lastLevel, levelCount: 6) == expected)
    }

    @Test(arguments: 0..<6)
    func levelOutputsAreTheLevelWhateverCameBefore(output: Int) {
        for last in 0..<6 {
            #expect(PensieveStrategy.level(output: output, actions: .levels, lastLevel: last, levelCount: 6) == output)
        }
    }

    /// A Genet-shaped actor whose softmax always picks `output` (its last layer: zero weights,
    /// one large bias), with Genet's metadata.
    static func forcedModel(output: Int, in folder: URL) throws -> String {
        let tensors = ActorFixture.tensors(ActorFixture.genet).map { tensor -> SafetensorsFile.Tensor in
            switch tensor.name {
            case "actor/FullyConnected_4/W": SafetensorsFile.Tensor(name: tensor.name, dtype: "F32", shape: tensor.shape, values: tensor.values.map { _ in 0 })
            case "actor/FullyConnected_4/b": SafetensorsFile.Tensor(name: tensor.name, dtype: "F32", shape: [3], values: (0..<3).map { $0 == output ? 40 : 0 })
            default: tensor
            }
        }
        let path = folder.appendingPathComponent("forced-\(output).safetensors").path
        try Data(SafetensorsFile.encode(tensors, metadata: ActorDeclarationTests.genetMetadata)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-genet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    static func levels(model: String, params: [String: String], segments: Int = 9) throws -> [Int] {
        let descriptor = try StrategyDescriptor.genet(defaultModelPath: model).configured(params)
        let video = try Video(
            name: "v", segmentDurationSeconds: 4, ladder: PensieveStateTests.ladder,
            sizesBytes: (0..<segments).map { s in (0..<6).map { 100_000 * (s % 3 + 1) * ($0 + 1) } }
        )
        let trace = try NetworkTrace(name: "flat", periods: [TracePeriod(durationSeconds: 1, bandwidthBitsPerSecond: 3_000_000)])
        let result = try SessionEmulator(profile: .pensieve, segmentsToPlay: segments)
            .run(strategy: try descriptor.makeStrategy(), strategyID: "genet", trace: trace, video: video)
        return result.segments.map(\.level)
    }

    /// Always up from level 1 climbs one level a segment and stays at the top; always down from
    /// the top walks to the bottom and stays; stay keeps the first level; both actions agree
    /// when the softmax leaves no doubt.
    @Test(arguments: ["sampled", "argmax"])
    func forcedStepsClimbAndStopAtTheEnds(action: String) throws {
        try Self.withFolder { folder in
            let up = try Self.levels(model: Self.forcedModel(output: 2, in: folder), params: ["first_level": "1", "action": action])
            #expect(up == [0, 1, 2, 3, 4, 5, 5, 5, 5])
            let down = try Self.levels(model: Self.forcedModel(output: 0, in: folder), params: ["first_level": "6", "action": action])
            #expect(down == [5, 4, 3, 2, 1, 0, 0, 0, 0])
            let stay = try Self.levels(model: Self.forcedModel(output: 1, in: folder), params: ["first_level": "3", "action": action])
            #expect(stay == Array(repeating: 2, count: 9))
        }
    }

    @Test func declaresPensieveNativesParametersAndAFirstLevel() throws {
        let descriptor = StrategyDescriptor.genet(defaultModelPath: "/x/genet.safetensors")
        #expect(descriptor.id == "genet")
        #expect(descriptor.params.map(\.key) == ["action", "first_level", "model", "seed"])
        #expect(descriptor.params.map(\.value) == [.string("sampled"), .integer(2), .string("/x/genet.safetensors"), .integer(42)])
    }

    @Test(arguments: [
        (["action": "greedy"], "param: parameter genet.action needs sampled or sample or argmax, not 'greedy'"),
        (["seed": "-1"], "param: parameter genet.seed needs an integer from 0 to 4294967295 (numpy's seed range), not -1"),
        (["first_level": "0"], "param: parameter genet.first_level needs a level from 1, not 0"),
        (["first_level": "two"], "param: parameter genet.first_level needs an integer, not 'two'"),
        ([:], "param: genet's default model /nonexistent/genet.safetensors is not there; Genet's models are not shipped with abrlab: name one with genet.model=FILE"),
        (["model": "/nonexistent/x.safetensors"], "/nonexistent/x.safetensors: no such file"),
    ])
    func badParametersAreOneError(values: [String: String], expected: String) {
        let descriptor = StrategyDescriptor.genet(defaultModelPath: "/nonexistent/genet.safetensors")
        #expect(PensieveStrategyTests.failure { _ = try descriptor.configured(values) } == expected)
    }

    @Test func pensievesShapedModelIsRefusedNamingTheTensor() throws {
        let descriptor = StrategyDescriptor.genet(defaultModelPath: ActorNetworkTests.shippedModel)
        let message = PensieveStrategyTests.failure { _ = try descriptor.configured([:]) }
        #expect(message == "\(ActorNetworkTests.shippedModel): does not fit the genet layout: actor/Conv1D/W reads a history of 8 columns (shape [4, 1, 8, 128]) but the genet layout declares 6")
    }

    @Test func aVideoOfOtherLevelsIsUnfitBeforeAnySession() throws {
        try Self.withFolder { folder in
            let descriptor = try StrategyDescriptor.genet(defaultModelPath: Self.forcedModel(output: 1, in: folder)).configured([:])
            let ladder = [300, 750, 1200, 1850].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }
            let video = try Video(name: "v", segmentDurationSeconds: 4, ladder: ladder, sizesBytes: [[1, 2, 3, 4]])
            let setting = RunSetting(emulator: SessionEmulator(profile: .pensieve, segmentsToPlay: 1), video: video)
            #expect(try descriptor.fit(setting) == .unfit(reason: "the model reads the next sizes of 6 levels but the video has 4 levels"))
        }
    }
}
