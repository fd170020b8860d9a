import ABRLab

/// An HLS attribute list (RFC 8216 §4.2): comma-separated `NAME=VALUE` pairs, in order.
///
/// Quoted strings may hold commas and equals signs; unquoted values are classified as decimal
/// integers, hexadecimal sequences (`0x…`), decimal floats (signed or not), resolutions
/// (`1280x720`) or enumerated strings. Blanks after a comma are skipped, as many packagers write
/// them; everything else the RFC forbids is an error.
public struct HLSAttributeList: Equatable, Hashable, Sendable {
    public struct Attribute: Equatable, Hashable, Sendable {
        public let name: String
        public let value: HLSAttributeValue

        public init(name: String, value: HLSAttributeValue) {
            self.name = name
            self.value = value
        }

        /// `NAME=VALUE` as it appears in a playlist.
        public var formatted: String { name + "=" + value.formatted }
    }

    public let attributes: [Attribute]

    public init(_ attributes: [Attribute]) {
        self.attributes = attributes
    }

    public subscript(name: String) -> HLSAttributeValue? {
        attributes.first { $0.name == name }?.value
    }

    public var names: [String] { attributes.map(\.name) }

    /// The list as it appears after a tag's colon.
    public var formatted: String { attributes.map(\.formatted).joined(separator: ",") }

    /// Parses the text after a tag's colon. Errors carry no place; playlist parsers add the
    /// file, the line and the tag.
    public init(parsing text: some StringProtocol) throws(HLSAttributeError) {
        let bytes = Array(text.utf8)
        var attributes: [Attribute] = []
        var seen: Set<String> = []
        var index = 0
        func skipBlanks() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

        skipBlanks()
        guard index < bytes.count else { throw HLSAttributeError("the attribute list is empty") }
        while true {
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") { index += 1 }
            let name = string(nameStart..<index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw HLSAttributeError("'\(name)' is not NAME=VALUE")
            }
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isNameByte) else {
                throw HLSAttributeError("'\(name)' is not an attribute name (A–Z, 0–9 and -)")
            }
            guard seen.insert(name).inserted else { throw HLSAttributeError("attribute \(name) appears twice") }
            index += 1
            let value: HLSAttributeValue
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = index + 1
                guard let close = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
                    throw HLSAttributeError("attribute \(name) has a quoted string without its closing quote")
                }
                value = .quoted(string(valueStart..<close))
                index = close + 1
            } else {
                let valueStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                value = try Self.unquoted(string(valueStart..<index), name: name)
            }
            attributes.append(Attribute(name: name, value: value))
            guard index < bytes.count else { break }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw HLSAttributeError("attribute \(name) is followed by '\(string(index..<bytes.count))' instead of a comma")
            }
            index += 1
            skipBlanks()
            guard index < bytes.count else { throw HLSAttributeError("the attribute list ends with a comma") }
        }
        self.attributes = attributes
    }

    /// Classifies an unquoted value by its characters.
    static func unquoted(_ text: String, name: String) throws(HLSAttributeError) -> HLSAttributeValue {
        let utf8 = text.utf8
        guard !text.isEmpty else { throw HLSAttributeError("attribute \(name) has an empty value") }
        guard !utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
            throw HLSAttributeError("attribute \(name) has an unquoted value '\(text)' with a quote or blank in it")
        }
        if utf8.allSatisfy(isDigit) {
            guard Int(text) != nil else { throw HLSAttributeError("attribute \(name) is \(text), too large for a whole number") }
            return HLSAttributeValue(kind: .decimalInteger, text: text)
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x"), utf8.count > 2, utf8.dropFirst(2).allSatisfy(isHexDigit) {
            return HLSAttributeValue(kind: .hexadecimal, text: text)
        }
        if isDecimalFloat(text) { return HLSAttributeValue(kind: .decimalFloat, text: text) }
        if HLSResolution(text) != nil { return HLSAttributeValue(kind: .resolution, text: text) }
        return HLSAttributeValue(kind: .enumeratedString, text: text)
    }

    /// `[-]digits[.digits]` with at least one digit; a signed whole number counts as a float
    /// because the RFC has no signed integer type.
    static func isDecimalFloat(_ text: String) -> Bool {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard digits.contains(where: isDigit), parts.count <= 2 else { return false }
        return parts.allSatisfy { $0.allSatisfy(isDigit) }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte)
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-")
    }
}
