/// What a Pensieve-family actor's tensors cannot say, declared by a strategy (``pensieve`` and
/// ``genet``) or read from the file's `__metadata__`: the row its chunks-left branch
/// (`FullyConnected_2`) reads and whether its outputs are levels or relative steps; and, checked
/// against the tensors, its history length and output count. A field left `nil` is not declared.
///
/// Pensieve: Mao, Netravali, Alizadeh, SIGCOMM 2017, doi:10.1145/3098822.3098843 (`test/a3c.py`).
/// Genet: Xia et al., "Genet: Automatic Curriculum Generation for Learning Adaptation in
/// Networking", SIGCOMM 2022, doi:10.1145/3544216.3544243 (`fig_reproduce/sim/a3c.py`).
public struct ActorDeclaration: Sendable, Equatable {
    /// What output i of the softmax means.
    public enum Actions: String, Sendable, Equatable {
        /// Level i of the ladder (Pensieve).
        case levels
        /// Three outputs: one level down, stay, one level up from the level just downloaded,
        /// clamped to the ladder (Genet's `calculate_from_selection`).
        case steps
    }

    /// Names the declaration in messages: "the genet layout", "its __metadata__".
    public let source: String
    /// History length: the columns of the state (`Conv1D/W`'s third dimension).
    public var columns: Int?
    /// 0-based row whose last column `FullyConnected_2` reads: Pensieve's slip reads row 4
    /// (its issue #20), Genet reads row 5 (chunks left), as both were trained.
    public var chunksLeftRow: Int?
    /// Outputs of the softmax (`FullyConnected_4/W`'s second dimension).
    public var outputs: Int?
    public var actions: Actions?

    public init(source: String, columns: Int? = nil, chunksLeftRow: Int? = nil, outputs: Int? = nil, actions: Actions? = nil) {
        self.source = source
        self.columns = columns
        self.chunksLeftRow = chunksLeftRow
        self.outputs = outputs
        self.actions = actions
    }

    /// Pensieve's pretrained actor: 6 × 8 state, branch 6 on row 4, six levels.
    public static let pensieve = ActorDeclaration(source: "the pensieve layout", columns: 8, chunksLeftRow: 4, outputs: 6, actions: .levels)
    /// Genet's actors: 6 × 6 state, branch 6 on row 5, down / stay / up.
    public static let genet = ActorDeclaration(source: "the genet layout", columns: 6, chunksLeftRow: 5, outputs: 3, actions: .steps)

    /// The row branch 6 reads when nothing declares one: Pensieve's.
    static let defaultChunksLeftRow = 4
    /// What an undeclared file is read as: Pensieve's rules, the shape from the tensors.
    static let undeclared = ActorDeclaration(source: "the actor layout", chunksLeftRow: defaultChunksLeftRow, actions: .levels)

    /// The text of `outputs` metadata that declares relative steps, as Genet's converted files say it.
    static let stepsText = "0 = one level down, 1 = stay, 2 = one level up"

    /// Reads the keys abrlab understands from a file's `__metadata__` (others are free text):
    /// `inputs` "ROWSxCOLUMNS" (rows must be 6), `outputs` "N" optionally followed by
    /// " (…)" — relative steps when that text starts with ``stepsText`` — and `branch6_reads`
    /// "row R…" (0-based). A recognised key that does not parse is one error naming the file.
    public init(metadata: [String: String], file: String) throws(InputError) {
        self.init(source: "its __metadata__")
        func refuse(_ key: String, expected: String) -> InputError {
            InputError(file: file, "__metadata__ \(key) is '\(metadata[key] ?? "")'; abrlab reads it as \(expected)")
        }
        if let inputs = metadata["inputs"] {
            let parts = inputs.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let rows = Self.number(parts[0]), let columns = Self.number(parts[1]) else {
                throw refuse("inputs", expected: "ROWSxCOLUMNS, e.g. 6x8")
            }
            guard rows == ActorNetwork.rows else {
                throw InputError(file: file, "__metadata__ inputs is '\(inputs)'; Pensieve-family actors read \(ActorNetwork.rows) rows")
            }
            self.columns = columns
        }
        if let outputs = metadata["outputs"] {
            let count = outputs.prefix { $0.isASCII && $0.isNumber }
            let rest = outputs.dropFirst(count.count)
            guard let number = Self.number(count), rest.isEmpty || (rest.hasPrefix(" (") && rest.hasSuffix(")")) else {
                throw refuse("outputs", expected: "a count, optionally followed by ' (…)'")
            }
            self.outputs = number
            actions = rest.dropFirst(2).hasPrefix(Self.stepsText) ? .steps : .levels
        }
        if let reads = metadata["branch6_reads"] {
            let digits = reads.dropFirst("row ".count).prefix { $0.isASCII && $0.isNumber }
            let after = reads.dropFirst("row ".count + digits.count)
            guard reads.hasPrefix("row "), let row = Self.number(digits), row < ActorNetwork.rows,
                  after.isEmpty || after.first == " " || after.first == "," else {
                throw refuse("branch6_reads", expected: "'row R' with R from 0 to \(ActorNetwork.rows - 1)")
            }
            chunksLeftRow = row
        }
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
