import Foundation

/// The actor network of a Pensieve-style agent, evaluated natively in float32 as TensorFlow does.
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
/// 6. `FullyConnected_2`: dense over the last column of row 4 for Pensieve (its slip, issue #20:
///    row 5 was meant; the weights were trained with it), of row 5 for Genet (Xia et al.,
///    SIGCOMM 2022, doi:10.1145/3544216.3544243), as the model's ``ActorDeclaration`` says.
///
/// Each branch is relu(x · W + b). The "convolutions" run over an axis of length 1 with "same"
/// padding, so only the kernel tap `(taps − 1) / 2` touches data. Then
/// `h = relu(concat · FullyConnected_3/W + b)` and `p = softmax(h · FullyConnected_4/W + b)`.
///
/// The layout comes from the tensors' names and shapes (``ActorLayout``), so checkpoints of the
/// same family with another history length, branch width or number of actions load unchanged;
/// what they cannot say (branch 6's row, levels or relative steps) from the declaration.
public final class ActorNetwork: Sendable {
    /// Rows of the state the network reads.
    public static let rows = 6

    /// Columns of the state: the history length (`Conv1D`'s kernel width).
    public let columns: Int
    /// Outputs of the softmax: one probability per action.
    public let outputs: Int
    /// What output i means: level i, or a step from the level just downloaded.
    public let actions: ActorDeclaration.Actions
    /// The row whose last column `FullyConnected_2` reads (Pensieve 4, Genet 5).
    public let chunksLeftRow: Int
    /// Next-segment sizes the network reads from row 4 (`Conv1D_2`'s inputs): one per level.
    public let nextSizes: Int
    /// Weights and biases in all.
    public let parameterCount: Int
    /// Multiply-adds of one forward pass.
    public let multiplyAdds: Int
    /// Where the weights came from, for messages.
    public let file: String

    let branches: [ActorLayout.Branch]
    let concatWidth: Int
    let hiddenWeights: [Float]
    let hiddenBias: [Float]
    let outputWeights: [Float]
    let outputBias: [Float]

    /// Reads a safetensors file and builds the network its tensors describe, as `declared` (when
    /// given) says what they cannot.
    public convenience init(contentsOf path: String, declared: ActorDeclaration? = nil) throws(InputError) {
        try self.init(tensors: SafetensorsFile.load(path: path), declared: declared)
    }

    /// Builds the network from checked tensors; a layout mismatch is one error naming the file
    /// and the tensor.
    public init(tensors: SafetensorsFile, declared: ActorDeclaration? = nil) throws(InputError) {
        let layout = try ActorLayout(tensors, declared: declared)
        file = tensors.file
        columns = layout.columns
        outputs = layout.outputs
        actions = layout.actions
        chunksLeftRow = layout.chunksLeftRow
        nextSizes = layout.nextSizes
        branches = layout.branches
        concatWidth = layout.concatWidth
        hiddenWeights = layout.hiddenWeights.map { Float($0) }
        hiddenBias = layout.hiddenBias.map { Float($0) }
        outputWeights = layout.outputWeights.map { Float($0) }
        outputBias = layout.outputBias.map { Float($0) }
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
    /// Like TensorFlow, it computes in float32 (the state rounded to float32, the weights as
    /// trained); the softmax is taken in float64.
    public func forward(input: UnsafePointer<Double>, output: UnsafeMutablePointer<Double>) {
        let hiddenWidth = hiddenBias.count
        let count = inputCount + concatWidth + hiddenWidth + outputs
        withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { scratch in
            let state = scratch.baseAddress!
            let concat = state + inputCount
            let hidden = concat + concatWidth
            let logits = hidden + hiddenWidth
            for index in 0..<inputCount { state[index] = Float(input[index]) }
            for branch in branches {
                let x = state + branch.row * columns + branch.firstColumn
                Self.dense(x, count: branch.inputs, weights: branch.weights, bias: branch.bias, into: concat + branch.offset, relu: true)
            }
            Self.dense(concat, count: concatWidth, weights: hiddenWeights, bias: hiddenBias, into: hidden, relu: true)
            Self.dense(hidden, count: hiddenWidth, weights: outputWeights, bias: outputBias, into: logits, relu: false)
            for index in 0..<outputs { output[index] = Double(logits[index]) }
        }
        Self.softmax(output, count: outputs)
    }

    /// out[j] = bias[j] + Σᵢ x[i] · W[i][j] (then relu), W row-major with `bias.count` columns.
    /// Each sum runs over i in order, one rounding per product and per addition (no fused
    /// multiply-add), so the result is the plain loop's bit for bit whatever the vector width;
    /// zero inputs are skipped, which changes no sum. Sixteen outputs are accumulated at a time.
    private static func dense(
        _ x: UnsafePointer<Float>, count: Int, weights: [Float], bias: [Float],
        into out: UnsafeMutablePointer<Float>, relu: Bool
    ) {
        let width = bias.count
        weights.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                // The non-zero inputs and where their weight rows start, gathered once.
                withUnsafeTemporaryAllocation(of: (value: Float, row: Int).self, capacity: max(count, 1)) { active in
                    var n = 0
                    for i in 0..<count where x[i] != 0 {
                        active[n] = (x[i], i * width)
                        n += 1
                    }
                    let w = weights.baseAddress!
                    var j = 0
                    while j + 16 <= width {
                        var sum = UnsafeRawPointer(bias.baseAddress! + j).loadUnaligned(as: SIMD16<Float>.self)
                        for k in 0..<n {
                            let (value, row) = active[k]
                            sum += SIMD16<Float>(repeating: value) * UnsafeRawPointer(w + row + j).loadUnaligned(as: SIMD16<Float>.self)
                        }
                        if relu { sum.replace(with: 0, where: sum .< 0) }
                        UnsafeMutableRawPointer(out + j).storeBytes(of: sum, as: SIMD16<Float>.self)
                        j += 16
                    }
                    while j < width {
                        var sum = bias[j]
                        for k in 0..<n { sum += active[k].value * w[active[k].row + j] }
                        out[j] = relu && sum < 0 ? 0 : sum
                        j += 1
                    }
                }
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
