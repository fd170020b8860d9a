import Foundation

/// A plain multilayer perceptron over Pensieve's state, read from safetensors: what a policy
/// trained in Python (`python/`, docs/python.md) leaves as, and the `mlp` strategy plays.
///
/// The layout: tensors `layers.0.weight` [h1, 48], `layers.0.bias` [h1], `layers.1.weight`
/// [h2, h1], … `layers.N.weight` [levels, hN] and their biases (PyTorch's `nn.Linear` shapes:
/// [outputs, inputs]), any float dtype; the `activation` metadata (`relu`, the default, or `tanh`)
/// follows every layer but the last, whose outputs are the levels' logits. The input is the
/// state flattened row-major (6 rows of 8), as the environment's observation.
public struct MLPNetwork: Sendable {
    public enum Activation: String, Sendable, CaseIterable {
        case relu, tanh
    }

    /// One dense layer: `outputs` rows of `inputs` weights, row-major, and a bias per output.
    public struct Layer: Sendable {
        public let inputs: Int
        public let outputs: Int
        let weights: [Double]
        let bias: [Double]
    }

    public let layers: [Layer]
    public let activation: Activation
    public let file: String

    /// Pensieve's state, 6 rows of 8.
    public static let inputs = PensieveState.rows * 8

    public var outputs: Int { layers[layers.count - 1].outputs }

    public init(contentsOf path: String) throws(InputError) {
        try self.init(tensors: SafetensorsFile.load(path: path))
    }

    public init(tensors: SafetensorsFile) throws(InputError) {
        file = tensors.file
        let name = tensors.metadata["activation"] ?? Activation.relu.rawValue
        guard let activation = Activation(rawValue: name) else {
            throw InputError(file: tensors.file, "unknown activation '\(name)' in the metadata; use relu or tanh")
        }
        self.activation = activation
        let expected = Set((0..<tensors.tensors.count / 2).flatMap { ["layers.\($0).weight", "layers.\($0).bias"] })
        guard !tensors.tensors.isEmpty, Set(tensors.tensors.keys) == expected else {
            let odd = tensors.tensors.keys.sorted().first { !expected.contains($0) } ?? "layers.0.weight"
            throw InputError(
                file: tensors.file,
                "is not an abrlab MLP: expected tensors layers.0.weight, layers.0.bias, layers.1.weight, … numbered from 0 without gaps; found \(tensors.tensors.isEmpty ? "none" : "'\(odd)'") (docs/python.md, \"Back to abrlab\")"
            )
        }
        var layers: [Layer] = []
        var inputs = Self.inputs
        for index in 0..<expected.count / 2 {
            let weight = tensors.tensors["layers.\(index).weight"]!
            let bias = tensors.tensors["layers.\(index).bias"]!
            guard weight.shape.count == 2, weight.shape[1] == inputs, bias.shape == [weight.shape[0]], weight.shape[0] > 0 else {
                throw InputError(
                    file: tensors.file,
                    "layers.\(index).weight is \(weight.shape) and layers.\(index).bias \(bias.shape); expected [outputs, \(inputs)] and [outputs]\(index == 0 ? " (the first layer reads the 48 values of Pensieve's state)" : "")"
                )
            }
            guard (weight.values + bias.values).allSatisfy(\.isFinite) else {
                throw InputError(file: tensors.file, "layers.\(index) holds a weight that is not a finite number")
            }
            layers.append(Layer(inputs: inputs, outputs: weight.shape[0], weights: weight.values, bias: bias.values))
            inputs = weight.shape[0]
        }
        self.layers = layers
    }

    /// The logits of `input` (``inputs`` values).
    public func logits(_ input: UnsafeBufferPointer<Double>) -> [Double] {
        var values = Array(input)
        for (index, layer) in layers.enumerated() {
            var next = layer.bias
            for output in 0..<layer.outputs {
                var sum = next[output]
                let row = output * layer.inputs
                for column in 0..<layer.inputs { sum += layer.weights[row + column] * values[column] }
                next[output] = index == layers.count - 1 ? sum : activation == .relu ? max(sum, 0) : Foundation.tanh(sum)
            }
            values = next
        }
        return values
    }
}
