import ABRLab

extension FuzzTarget {
    /// Model files: safetensors, then the Pensieve actor network built from its tensors.
    static let modelTargets: [FuzzTarget] = [
        FuzzTarget(name: "safetensors", dictionary: "safetensors.dict") { bytes in
            let file = "model.safetensors"
            do throws(InputError) {
                let tensors = try SafetensorsFile(bytes: bytes, file: file)
                for tensor in tensors.tensors.values {
                    FuzzCheck.expect(tensor.values.count == tensor.shape.reduce(1, *), "tensor \(tensor.name) has \(tensor.values.count) values for shape \(tensor.shape)")
                }
                let network = try ActorNetwork(tensors: tensors)
                let state = Array(repeating: Array(repeating: 0.5, count: network.columns), count: ActorNetwork.rows)
                let probabilities = network.probabilities(state)
                FuzzCheck.expect(probabilities.count == network.outputs, "\(probabilities.count) probabilities for \(network.outputs) actions")
            } catch {
                FuzzCheck.rejection(error, file: file)
            }
        },
    ]
}
