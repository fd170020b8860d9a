import Foundation

/// The actor network of a Pensieve-style agent, evaluated natively in float64.
///
/// Mao, Netravali, Alizadeh, "Neural Adaptive Video Streaming with Pensieve", SIGCOMM 2017,
/// doi:10.1145/3098822.3098843; network as in its `test/a3c.py`. The input is a state of
/// 6 rows × `columns` numbers. Six branches read it and are concatenated in this order:
///
/// 1. `FullyConnected`: dense over row 0, last column;
/// 2. `FullyConnected_1`: dense over row 1, last column;
/// 3. `Conv1D`: dense over all of row 2;
/// 4. `Conv1D_1`: dense over all of row 3;
/// 5. `Conv1D_2`: dense over the first k columns of row 4 (k from its kernel's shape);
/// 6. `FullyConnected_2`: dense over row 4, last column (Pensieve's slip, its issue #20: row 5
///    was meant; the weights were trained with it).
///
/// Each branch is relu(x · W + b). The "convolutions" run over an axis of length 1 with "same"
/// padding, so only the kernel tap `(taps − 1) / 2` touches data. Then
/// `h = relu(concat · FullyConnected_3/W + b)` and `p = softmax(h · FullyConnected_4/W + b)`.
///
/// The layout comes from the tensors' names and shapes (``ActorLayout``), so checkpoints of the
/// same family with another history length, branch width or number of actions load unchanged.
public final class ActorNetwork: Sendable {
    /// Rows of the state the network reads.
    public static let rows = 6

    /// Columns of the state: the history length (`Conv1D`'s kernel width).
    public let columns: Int
    /// Outputs of the softmax: one probability per action.
    public let outputs: Int
    /// Weights and biases in all.
    public let parameterCount: Int
    /// Multiply-adds of one forward pass.
    public let multiplyAdds: Int
    /// Where the weights came from, for messages.
    public let file: String

    let branches: [ActorLayout.Branch]
    let concatWidth: Int
    let hiddenWeights: [Double]
    let hiddenBias: [Double]
    let outputWeights: [Double]
    let outputBias: [Double]

    /// Reads a safetensors file and builds the network its tensors describe.
    public convenience init(contentsOf path: String) throws(InputError) {
        try self.init(tensors: SafetensorsFile.load(path: path))
    }

    /// Builds the network from checked tensors; a layout mismatch is one error naming the file.
    public init(tensors: SafetensorsFile) throws(InputError) {
        let layout = try ActorLayout(tensors)
        file = tensors.file
        columns = layout.columns
        outputs = layout.outputs
        branches = layout.branches
        concatWidth = layout.concatWidth
        hiddenWeights = layout.hiddenWeights
        hiddenBias = layout.hiddenBias
        outputWeights = layout.outputWeights
        outputBias = layout.outputBias
        parameterCount = layout.parameterCount
        multiplyAdds = layout.multiplyAdds
    }

    /// Cells of the input: rows × columns.
    public var inputCount: Int { Self.rows * columns }

    /// The action probabilities for `state`, `rows` arrays of `columns` numbers.
    public func probabilities(_ state: [[Double]]) -> [Double] {
        precondition(state.count == Self.rows && state.allSatisfy { $0.count == columns }, "state must be \(Self.rows) × \(columns)")
        let input = state.flatMap { $0 }
        var output = [Double](repeating: 0, count: outputs)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                forward(input: input.baseAddress!, output: output.baseAddress!)
            }
        }
        return output
    }

    /// The forward pass over `inputCount` row-major numbers; writes `outputs` probabilities.
    /// Zero activations are skipped, which changes no sum.
    public func forward(input: UnsafePointer<Double>, output: UnsafeMutablePointer<Double>) {
        let hiddenWidth = hiddenBias.count
        withUnsafeTemporaryAllocation(of: Double.self, capacity: concatWidth + hiddenWidth) { scratch in
            let concat = scratch.baseAddress!
            let hidden = concat + concatWidth
            for branch in branches {
                let out = concat + branch.offset
                branch.bias.withUnsafeBufferPointer { bias in
                    for j in 0..<branch.width { out[j] = bias[j] }
                }
                branch.weights.withUnsafeBufferPointer { weights in
                    let row = input + branch.row * columns
                    for k in 0..<branch.inputs {
                        let x = row[branch.firstColumn + k]
                        if x == 0 { continue }
                        let w = weights.baseAddress! + k * branch.width
                        for j in 0..<branch.width { out[j] += x * w[j] }
                    }
                }
                for j in 0..<branch.width where out[j] < 0 { out[j] = 0 }
            }
            Self.dense(concat, count: concatWidth, weights: hiddenWeights, bias: hiddenBias, into: hidden)
            for j in 0..<hiddenWidth where hidden[j] < 0 { hidden[j] = 0 }
            Self.dense(hidden, count: hiddenWidth, weights: outputWeights, bias: outputBias, into: output)
        }
        Self.softmax(output, count: outputs)
    }

    /// out = bias + Σᵢ x[i] · W[i][·], W row-major with `bias.count` columns.
    private static func dense(
        _ x: UnsafePointer<Double>, count: Int, weights: [Double], bias: [Double], into out: UnsafeMutablePointer<Double>
    ) {
        let width = bias.count
        bias.withUnsafeBufferPointer { bias in
            for j in 0..<width { out[j] = bias[j] }
        }
        weights.withUnsafeBufferPointer { weights in
            for i in 0..<count {
                let value = x[i]
                if value == 0 { continue }
                let w = weights.baseAddress! + i * width
                for j in 0..<width { out[j] += value * w[j] }
            }
        }
    }

    private static func softmax(_ values: UnsafeMutablePointer<Double>, count: Int) {
        var largest = -Double.infinity
        for i in 0..<count { largest = max(largest, values[i]) }
        var sum = 0.0
        for i in 0..<count {
            values[i] = exp(values[i] - largest)
            sum += values[i]
        }
        for i in 0..<count { values[i] /= sum }
    }
}
