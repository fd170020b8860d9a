import Foundation

/// One parser entry point under the fuzzer. Adding a parser is one entry in `all` (or in one of
/// the lists it joins), a seed folder `Tests/Fuzz/corpus/NAME/` and, when its grammar has
/// keywords, a dictionary in `Tests/Fuzz/dict/`.
struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz NAME` takes and the corpus folder's name.
    let name: String
    /// The file in `Tests/Fuzz/dict/` that lists the grammar's tokens, if any.
    let dictionary: String?
    /// Feeds one input; it returns normally whether the input parses or not, and traps when a
    /// property of the parser is broken.
    let run: @Sendable ([UInt8]) -> Void

    init(name: String, dictionary: String? = nil, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.dictionary = dictionary
        self.run = run
    }

    static let all: [FuzzTarget] = traceTargets + videoTargets + hlsTargets + dashTargets + modelTargets + [luaSandbox, luaModules, paramGrid, rowsGzip]

    /// Input bytes as the loaders see a file: decoded as UTF-8 with invalid sequences replaced.
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
