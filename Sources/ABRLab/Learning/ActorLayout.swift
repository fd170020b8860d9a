/// How a Pensieve-style actor's tensors map onto its network, read from their names and shapes.
///
/// The contract (docs/lua-api.md, "Models"): tensor names are TensorFlow's, optionally under one
/// prefix ending in `/` (`actor/`); tensors outside that prefix (a critic, say) are ignored.
///
/// | tensor | shape | role |
/// |---|---|---|
/// | `FullyConnected/W`, `_1/W`, `_2/W` | [1, width] | dense over one cell: row 0, 1 and 4, last column |
/// | `Conv1D/W`, `Conv1D_1/W` | [taps, 1, columns, width] | dense over all of row 2 and row 3 |
/// | `Conv1D_2/W` | [taps, 1, k, width], k ≤ columns | dense over row 4, columns 1…k |
/// | each `…/b` | [width] | the branch's bias |
/// | `FullyConnected_3/W`, `/b` | [Σ widths, hidden], [hidden] | hidden layer over the concatenation |
/// | `FullyConnected_4/W`, `/b` | [hidden, actions], [actions] | logits of the softmax |
///
/// `columns` (the history length) is `Conv1D`'s third dimension; `Conv1D_1` must agree. What the
/// tensors cannot say — the row `FullyConnected_2` reads (row 4 above, Pensieve's; Genet's reads
/// row 5) and whether the outputs are levels or relative steps — comes from an
/// ``ActorDeclaration``: the one a strategy declares, the file's `__metadata__`, or else
/// Pensieve's. Every declared shape is checked against the tensors, and a mismatch is one error
/// naming the tensor.
struct ActorLayout {
    struct Branch: Sendable {
        /// 0-based row of the state it reads.
        let row: Int
        /// First column it reads and how many.
        let firstColumn: Int
        let inputs: Int
        let width: Int
        /// Offset of its output in the concatenation.
        let offset: Int
        /// [inputs][width], row-major, in float32 like the forward pass.
        let weights: [Float]
        let bias: [Float]
    }

    private enum Kind {
        /// Dense over the last column of a row.
        case lastCell
        /// Dense over the first columns of a row: all of them, or as many as the kernel has.
        case convolution
    }

    /// Branch tensors in concatenation order, with the row each reads (Pensieve's `a3c.py`);
    /// `nil`: the declared chunks-left row.
    private static let branchSpecs: [(name: String, row: Int?, kind: Kind)] = [
        ("FullyConnected", 0, .lastCell),
        ("FullyConnected_1", 1, .lastCell),
        ("Conv1D", 2, .convolution),
        ("Conv1D_1", 3, .convolution),
        ("Conv1D_2", 4, .convolution),
        ("FullyConnected_2", nil, .lastCell),
    ]
    private static let hiddenName = "FullyConnected_3"
    private static let outputName = "FullyConnected_4"
    private static let chunksLeftName = "FullyConnected_2"

    let columns: Int
    let outputs: Int
    /// The row `FullyConnected_2` reads, last column.
    let chunksLeftRow: Int
    let actions: ActorDeclaration.Actions
    /// Inputs of `Conv1D_2`: the next-segment sizes the network reads, one per level.
    let nextSizes: Int
    let branches: [Branch]
    let concatWidth: Int
    let hiddenWeights: [Double]
    let hiddenBias: [Double]
    let outputWeights: [Double]
    let outputBias: [Double]
    let parameterCount: Int
    let multiplyAdds: Int

    /// `declared`, when given, is what a strategy declares; the file's `__metadata__` must agree.
    init(_ file: SafetensorsFile, declared: ActorDeclaration? = nil) throws(InputError) {
        let described = try ActorDeclaration(metadata: file.metadata, file: file.file)
        var reader = try Reader(file, layoutName: declared?.source ?? ActorDeclaration.undeclared.source)
        let history = try reader.tensor("Conv1D/W")
        guard history.shape.count == 4 else { throw reader.shapeError(history, expected: "[taps, 1, columns, width]") }
        columns = history.shape[2]
        guard columns >= 1 else { throw reader.error("Conv1D/W has no columns; its shape is \(history.shape)") }
        for declaration in [declared, described].compactMap({ $0 }) {
            if let expected = declaration.columns, expected != columns {
                throw reader.error("Conv1D/W reads a history of \(columns) columns (shape \(history.shape)) but \(declaration.source) declares \(expected)")
            }
        }
        let row = try Self.agreed(\.chunksLeftRow, declared, described, reader: reader, tensor: "\(Self.chunksLeftName)/W", what: "reads row")
        chunksLeftRow = row ?? ActorDeclaration.defaultChunksLeftRow
        var branches: [Branch] = []
        var offset = 0
        for spec in Self.branchSpecs {
            let branch = try reader.branch(spec.name, row: spec.row ?? chunksLeftRow, lastCell: spec.kind == .lastCell, columns: columns, offset: offset)
            if spec.name == "Conv1D_1", branch.inputs != columns {
                throw reader.error("Conv1D_1/W reads \(branch.inputs) columns but Conv1D/W reads \(columns); both read the whole history")
            }
            branches.append(branch)
            offset += branch.width
        }
        concatWidth = offset
        let hidden = try reader.dense(Self.hiddenName, inputs: concatWidth, inputsMeaning: "the \(concatWidth) branch outputs")
        let output = try reader.dense(Self.outputName, inputs: hidden.bias.count, inputsMeaning: "the \(hidden.bias.count) hidden units")
        try reader.rejectUnknown()
        outputs = output.bias.count
        for declaration in [declared, described].compactMap({ $0 }) {
            if let expected = declaration.outputs, expected != outputs {
                throw reader.error("\(Self.outputName)/W has \(outputs) outputs but \(declaration.source) declares \(expected)")
            }
        }
        let outputsName = "\(Self.outputName)/W"
        actions = try Self.agreed(\.actions, declared, described, reader: reader, tensor: outputsName, what: "outputs are") ?? .levels
        if actions == .steps, outputs != 3 {
            throw reader.error("\(outputsName) has \(outputs) outputs; relative steps are 3 (one level down, stay, one level up)")
        }
        nextSizes = branches[4].inputs
        self.branches = branches
        hiddenWeights = hidden.weights
        hiddenBias = hidden.bias
        outputWeights = output.weights
        outputBias = output.bias
        let branchParameters = branches.reduce(0) { $0 + $1.weights.count + $1.bias.count }
        parameterCount = reader.parameterCount
        multiplyAdds = branchParameters + hidden.weights.count + output.weights.count
    }

    /// A fact the tensors cannot say, from the declaration or the metadata; both saying it
    /// differently is one error naming `tensor`, the tensor the fact is about.
    private static func agreed<T: Equatable>(
        _ field: KeyPath<ActorDeclaration, T?>, _ declared: ActorDeclaration?, _ described: ActorDeclaration,
        reader: Reader, tensor: String, what: String
    ) throws(InputError) -> T? {
        let fromFile = described[keyPath: field]
        guard let declared, let mine = declared[keyPath: field] else { return fromFile }
        if let fromFile, fromFile != mine {
            throw reader.error("\(tensor) \(what) \(mine) in \(declared.source) but \(fromFile) by \(described.source)")
        }
        return mine
    }

    /// Looks tensors up under the file's prefix and names the file in every error.
    private struct Reader {
        let file: SafetensorsFile
        let prefix: String
        /// "the actor layout", or the declared layout's name, for messages.
        let layoutName: String
        /// Tensors under the prefix that the layout has not used yet.
        private var unused: Set<String>

        init(_ file: SafetensorsFile, layoutName: String) throws(InputError) {
            self.file = file
            self.layoutName = layoutName
            let key = "\(ActorLayout.outputName)/W"
            let candidates = file.tensors.keys.filter { $0 == key || $0.hasSuffix("/" + key) }.sorted()
            guard let match = candidates.first else {
                throw InputError(file: file.file, "has no tensor \(key) (or prefix/\(key)); not a Pensieve-style actor (see docs/lua-api.md, Models)")
            }
            guard candidates.count == 1 else {
                throw InputError(file: file.file, "holds more than one actor: \(candidates.joined(separator: ", "))")
            }
            let prefix = String(match.dropLast(key.count))
            self.prefix = prefix
            unused = Set(file.tensors.keys.filter { $0.hasPrefix(prefix) })
        }

        var parameterCount: Int {
            file.tensors.values.filter { $0.name.hasPrefix(prefix) }.reduce(0) { $0 + $1.values.count }
        }

        func error(_ text: String) -> InputError {
            InputError(file: file.file, "does not fit \(layoutName): \(prefix)\(text)")
        }

        func shapeError(_ tensor: SafetensorsFile.Tensor, expected: String) -> InputError {
            InputError(file: file.file, "does not fit \(layoutName): \(tensor.name) has shape \(tensor.shape); expected \(expected)")
        }

        func tensor(_ name: String) throws(InputError) -> SafetensorsFile.Tensor {
            guard let tensor = file.tensors[prefix + name] else {
                throw InputError(file: file.file, "does not fit \(layoutName): tensor \(prefix)\(name) is missing")
            }
            return tensor
        }

        mutating func take(_ name: String) throws(InputError) -> SafetensorsFile.Tensor {
            let found = try tensor(name)
            unused.remove(prefix + name)
            return found
        }

        mutating func bias(_ name: String, width: Int) throws(InputError) -> [Double] {
            let bias = try take(name + "/b")
            guard bias.shape == [width] else { throw shapeError(bias, expected: "[\(width)]") }
            return bias.values
        }

        mutating func branch(_ name: String, row: Int, lastCell: Bool, columns: Int, offset: Int) throws(InputError) -> Branch {
            let kernel = try take(name + "/W")
            if lastCell {
                guard kernel.shape.count == 2, kernel.shape[0] == 1, kernel.shape[1] >= 1 else {
                    throw shapeError(kernel, expected: "[1, width]")
                }
                let width = kernel.shape[1]
                return Branch(
                    row: row, firstColumn: columns - 1, inputs: 1, width: width, offset: offset,
                    weights: kernel.values.map { Float($0) }, bias: try bias(name, width: width).map { Float($0) }
                )
            }
            let shape = kernel.shape
            guard shape.count == 4, shape[0] >= 1, shape[1] == 1, shape[2] >= 1, shape[3] >= 1 else {
                throw shapeError(kernel, expected: "[taps, 1, columns, width]")
            }
            guard shape[2] <= columns else {
                throw error("\(name)/W reads \(shape[2]) columns but the history has \(columns) (Conv1D/W)")
            }
            let inputs = shape[2], width = shape[3]
            let tap = (shape[0] - 1) / 2
            let start = tap * inputs * width
            return Branch(
                row: row, firstColumn: 0, inputs: inputs, width: width, offset: offset,
                weights: kernel.values[start..<start + inputs * width].map { Float($0) }, bias: try bias(name, width: width).map { Float($0) }
            )
        }

        mutating func dense(_ name: String, inputs: Int, inputsMeaning: String) throws(InputError) -> (weights: [Double], bias: [Double]) {
            let kernel = try take(name + "/W")
            guard kernel.shape.count == 2, kernel.shape[1] >= 1 else { throw shapeError(kernel, expected: "[inputs, outputs]") }
            guard kernel.shape[0] == inputs else {
                throw error("\(name)/W has shape \(kernel.shape) but takes \(inputsMeaning); expected [\(inputs), …]")
            }
            return (kernel.values, try bias(name, width: kernel.shape[1]))
        }

        func rejectUnknown() throws(InputError) {
            guard let name = unused.sorted().first else { return }
            throw InputError(file: file.file, "does not fit \(layoutName): unexpected tensor \(name)")
        }
    }
}
