import Foundation

/// abrlab's JSON files (`run.json`, `ranked.json`): `JSONEncoder` with pretty printing, sorted
/// keys and unescaped slashes, plus a fast path for long, plain parts of a document.
///
/// `run.json` lists every trace of a plan with its hash, and every shard writes it: through
/// `JSONEncoder`'s generic containers 1000 traces cost about 10 ms, more than the rest of a
/// small shard's bookkeeping. A ``Value`` tree renders the same bytes directly, and
/// ``Verbatim`` puts one inside a document the encoder writes.
public enum PrettyJSON {
    /// A JSON value without floating-point numbers, whose text the encoder would format its own way.
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case null
        /// Keys in any order: rendered sorted, as `.sortedKeys` does.
        case object([(String, Value)])
        case array([Value])
        /// A value's text as ``encoder()`` writes it on its own (``array(encoding:)``); placed in
        /// a document, its lines move in to where it stands.
        case encoded([UInt8])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): a == b
            case (.integer(let a), .integer(let b)): a == b
            case (.boolean(let a), .boolean(let b)): a == b
            case (.null, .null): true
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            case (.array(let a), .array(let b)): a == b
            case (.encoded(let a), .encoded(let b)): a == b
            default: false
            }
        }
    }

    /// Stands for a ``Value`` inside an `Encodable` document given to ``encode(_:)``.
    public struct Verbatim: Encodable, Sendable {
        public let value: Value

        public init(_ value: Value) { self.value = value }

        public func encode(to encoder: Encoder) throws {
            guard let box = encoder.userInfo[PrettyJSON.verbatimKey] as? VerbatimBox else {
                throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "PrettyJSON.Verbatim outside PrettyJSON.encode"))
            }
            var container = encoder.singleValueContainer()
            try container.encode(box.marker(for: value))
        }
    }

    /// A list written element by element (``array(encoding:)``) inside a document given to
    /// ``encode(_:)``: for the long lists of `run.json` and `ranked.json`.
    public struct ElementWise<Element: Encodable>: Encodable {
        public let elements: [Element]

        public init(_ elements: [Element]) { self.elements = elements }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Verbatim(try PrettyJSON.array(encoding: elements)))
        }
    }

    /// The encoder every abrlab JSON file is written with.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `elements` as one array ``Value``, each element encoded on its own. The encoder builds a
    /// tree of a whole document before writing it, several times the size of the text; for a
    /// long list of structured values (run.json's strategy rows, ranked.json's entries: a
    /// parameter grid makes a hundred thousand) that tree would be the run's largest memory.
    /// The elements must not hold a ``Verbatim``.
    public static func array<T: Encodable>(encoding elements: [T]) throws -> Value {
        let encoder = encoder()
        return .array(try elements.map { .encoded([UInt8](try encoder.encode($0))) })
    }

    /// `value` as ``encoder()`` writes it, each ``Verbatim`` rendered in its place.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let box = VerbatimBox()
        let encoder = encoder()
        encoder.userInfo[verbatimKey] = box
        let data = try encoder.encode(value)
        guard !box.values.isEmpty else { return data }
        var bytes = [UInt8](data)
        // Markers are found in reverse so earlier offsets stay valid as text is replaced.
        for (index, verbatim) in box.values.enumerated().reversed() {
            let quoted = Array("\"\(VerbatimBox.escapedPrefix)\(box.token)-\(index)\"".utf8)
            guard let start = firstIndex(of: quoted, in: bytes) else {
                throw EncodingError.invalidValue(verbatim, .init(codingPath: [], debugDescription: "PrettyJSON.Verbatim marker not found"))
            }
            let lineStart = bytes[..<start].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            let indent = bytes[lineStart...].prefix { $0 == UInt8(ascii: " ") }.count
            var text: [UInt8] = []
            append(verbatim, indent: indent, to: &text)
            bytes.replaceSubrange(start..<start + quoted.count, with: text)
        }
        return Data(bytes)
    }

    /// Where `pattern` first starts in `bytes`: a scan of the buffer, where Foundation's generic
    /// `firstRange(of:)` cost more than the rest of writing `run.json`.
    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { text in
            pattern.withUnsafeBufferPointer { pattern in
                for start in 0 ... text.count - pattern.count where text[start] == first {
                    if UnsafeBufferPointer(rebasing: text[start ..< start + pattern.count]).elementsEqual(pattern) { return start }
                }
                return nil
            }
        }
    }

    /// `value`'s text as a member at `indent` spaces: nested lines two spaces deeper, the
    /// closing bracket back at `indent`.
    public static func append(_ value: Value, indent: Int, to out: inout [UInt8]) {
        switch value {
        case .string(let text): appendString(text, to: &out)
        case .integer(let number): out.append(contentsOf: String(number).utf8)
        case .boolean(let flag): appendLiteral(flag ? "true" : "false", to: &out)
        case .null: appendLiteral("null", to: &out)
        case .object(let members):
            let ordered = zip(members, members.dropFirst()).allSatisfy { precedes($0.0, $1.0) }
                ? members : members.sorted { precedes($0.0, $1.0) }
            out.append(UInt8(ascii: "{"))
            for (index, member) in ordered.enumerated() {
                appendLineStart(indent: indent + 2, first: index == 0, to: &out)
                appendString(member.0, to: &out)
                appendLiteral(" : ", to: &out)
                append(member.1, indent: indent + 2, to: &out)
            }
            appendClose(indent: indent, empty: members.isEmpty, to: &out)
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                appendLineStart(indent: indent + 2, first: index == 0, to: &out)
                append(element, indent: indent + 2, to: &out)
            }
            appendClose(indent: indent, empty: elements.isEmpty, to: &out)
            out.append(UInt8(ascii: "]"))
        case .encoded(let text):
            // Lines after the first move in; the blank line of an empty container stays blank.
            var atLineStart = false
            for byte in text {
                if atLineStart, byte != UInt8(ascii: "\n") { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent)) }
                out.append(byte)
                atLineStart = byte == UInt8(ascii: "\n")
            }
        }
    }

    /// The order of `.sortedKeys`: by UTF-8 bytes.
    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Ends the previous member's line, if any, and indents the next.
    private static func appendLineStart(indent: Int, first: Bool, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append(UInt8(ascii: " ")) }
    }

    /// Ends the last member's line; an empty container keeps a blank line, as the encoder writes it.
    private static func appendClose(indent: Int, empty: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        if empty { out.append(UInt8(ascii: "\n")) }
        for _ in 0..<indent { out.append(UInt8(ascii: " ")) }
    }

    private static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A string literal escaped as the encoder escapes it: quote, backslash and control
    /// characters only (short forms where JSON has them), slashes and non-ASCII as they are.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                out.append(contentsOf: bytes)
            } else {
                for byte in bytes { appendEscaped(byte, to: &out) }
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
        case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x0a: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0c: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        case 0x0d: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0..<0x20:
            appendLiteral("\\u00", to: &out)
            hex.withUTF8Buffer { out += [$0[Int(byte >> 4)], $0[Int(byte & 0xf)]] }
        default: out.append(byte)
        }
    }

    static let verbatimKey = CodingUserInfoKey(rawValue: "abrlab.PrettyJSON.verbatim")!

    /// Collects the values of one ``encode(_:)`` call. Encoding runs on the calling thread only.
    final class VerbatimBox: @unchecked Sendable {
        // Sound: the encoder's user info must be Sendable, but one `encode(_:)` call on one thread uses the box.
        /// The marker's text as the encoder escapes it; a NUL cannot come from a path or argument.
        static let escapedPrefix = "\\u0000abrlab-verbatim-"
        let token = UUID().uuidString
        private(set) var values: [Value] = []

        func marker(for value: Value) -> String {
            values.append(value)
            return "\u{0}abrlab-verbatim-\(token)-\(values.count - 1)"
        }
    }
}
