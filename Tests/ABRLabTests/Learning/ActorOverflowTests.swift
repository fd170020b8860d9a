import ABRLab
import Foundation
import Testing
import TestSupport

/// Finite weights that overflow float32 give NaN probabilities; the strategy reports them
/// instead of choosing from them (found by the safetensors fuzzer).
@Suite(.tags(.core), .selectedByTags) struct ActorOverflowTests {
    @Test func anOverflowingModelEndsTheSessionWithAClearError() throws {
        var shape = ActorFixture.Shape()
        (shape.columns, shape.nextSizes, shape.actions, shape.taps) = (8, 6, 6, 4)
        let tensors = ActorFixture.tensors(shape).map { tensor in
            SafetensorsFile.Tensor(
                name: tensor.name, dtype: tensor.dtype, shape: tensor.shape,
                values: tensor.values.indices.map { $0.isMultiple(of: 2) ? 3e38 : -3e38 }
            )
        }
        let network = try ActorNetwork(tensors: SafetensorsFile(bytes: SafetensorsFile.encode(tensors), file: "huge.safetensors"))
        let ladder = [300, 750, 1200, 1850, 2850, 4300].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }
        let video = try Video(name: "cbr", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 48)
        let trace = try NetworkTrace(name: "flat", periodEndSeconds: [100], bandwidthBitsPerSecond: [3_000_000])
        var strategy = PensieveStrategy(network: network, action: .argmax)
        do {
            _ = try SessionEmulator(profile: .pensieve).run(&strategy, strategyID: "p", trace: trace, video: video)
            Issue.record("the session finished on NaN probabilities")
        } catch {
            #expect(String(describing: error).hasPrefix("huge.safetensors: the model's output"), "\(error)")
            #expect(String(describing: error).contains("is not a probability"))
        }
    }
}
