import ABRLab
import Foundation
import Testing
import TestSupport

/// The MLP layout a Python policy is saved in: read, evaluated and refused as docs/python.md says.
@Suite(.tags(.core), .selectedByTags) struct MLPNetworkTests {
    typealias Tensor = SafetensorsFile.Tensor

    /// 48 inputs → 2 hidden → 3 logits; hidden 0 adds inputs 0 and 1, hidden 1 subtracts them.
    static func tensors(activation: String = "relu", firstInputs: Int = 48) -> [Tensor] {
        var hidden = [Double](repeating: 0, count: 2 * firstInputs)
        hidden[0] = 1
        hidden[1] = 1
        hidden[firstInputs] = -1
        hidden[firstInputs + 1] = -1
        return [
            Tensor(name: "layers.0.weight", dtype: "F32", shape: [2, firstInputs], values: hidden),
            Tensor(name: "layers.0.bias", dtype: "F32", shape: [2], values: [0, 0.5]),
            Tensor(name: "layers.1.weight", dtype: "F32", shape: [3, 2], values: [1, 0, 0, 1, 0.5, 0.5]),
            Tensor(name: "layers.1.bias", dtype: "F32", shape: [3], values: [0, 0, -1]),
        ]
    }

    static func network(_ tensors: [Tensor], metadata: [String: String] = [:]) throws(InputError) -> MLPNetwork {
        try MLPNetwork(tensors: SafetensorsFile(bytes: SafetensorsFile.encode(tensors, metadata: metadata), file: "policy.safetensors"))
    }

    @Test(arguments: ["relu", "tanh"])
    func layersAddUpAsDocumented(activation: String) throws {
        let network = try Self.network(Self.tensors(), metadata: ["activation": activation])
        #expect(network.outputs == 3 && network.activation.rawValue == activation)
        var input = [Double](repeating: 0, count: 48)
        input[0] = 1
        input[1] = 2
        let logits = input.withUnsafeBufferPointer { network.logits($0) }
        let hidden = activation == "relu" ? [3.0, 0] : [tanh(3.0), tanh(-2.5)]
        #expect(logits == [hidden[0], hidden[1], 0.5 * hidden[0] + 0.5 * hidden[1] - 1])
    }

    @Test func otherLayoutsAreRefusedNamingTheFile() throws {
        var gap = Self.tensors()
        gap[2] = Tensor(name: "layers.2.weight", dtype: "F32", shape: [3, 2], values: [1, 0, 0, 1, 0.5, 0.5])
        let cases: [([Tensor], [String: String], String)] = [
            (gap, [:], "is not an abrlab MLP"),
            (Self.tensors(firstInputs: 47), [:], "expected [outputs, 48]"),
            (Self.tensors(), ["activation": "sigmoid"], "unknown activation 'sigmoid'"),
        ]
        for (tensors, metadata, message) in cases {
            #expect { try Self.network(tensors, metadata: metadata) } throws: { error in
                let text = String(describing: error)
                return text.hasPrefix("policy.safetensors") && text.contains(message)
            }
        }
    }

    @Test func theStrategyFitsOnlyALadderOfItsOutputCount() throws {
        let strategy = MLPStrategy(network: try Self.network(Self.tensors()))
        let ladder = (1...3).map { BitrateLevel(bitrate: $0 * 1_000_000, label: "L\($0)") }
        let video = try Video(name: "v", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 10)
        #expect(strategy.fit(RunSetting(video: video, segmentCount: 10, profileName: "default", maxBufferSeconds: 60)) == .fits)
        let four = try Video(name: "v", segmentDurationSeconds: 4, ladder: ladder + [BitrateLevel(bitrate: 5_000_000, label: "L4")], segmentCount: 10)
        #expect(strategy.fit(RunSetting(video: four, segmentCount: 10, profileName: "default", maxBufferSeconds: 60)) != .fits)
    }
}
