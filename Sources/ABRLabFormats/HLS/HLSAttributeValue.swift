import ABRLab

/// One value of an HLS attribute list (RFC 8216 §4.2), kept as written so that identifiers such
/// as `ID=007` keep their leading zeros and numbers their digits.
public struct HLSAttributeValue: Equatable, Hashable, Sendable {
    /// The value types RFC 8216 defines; a signed decimal float is a `decimalFloat`.
    public enum Kind: String, Equatable, Hashable, Sendable {
        case decimalInteger, hexadecimal, decimalFloat, quotedString, enumeratedString, resolution
    }

    public let kind: Kind
    /// The text between the quotes for a quoted string, the text as written otherwise.
    public let text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    public static func quoted(_ text: String) -> HLSAttributeValue { HLSAttributeValue(kind: .quotedString, text: text) }

    public var isQuoted: Bool { kind == .quotedString }

    /// The value as a string, whether it was quoted or not: `ID="HIGH"` and `ID=HIGH` both give `HIGH`.
    public var string: String { text }

    /// A decimal integer's value; nil for other kinds and for values beyond `Int`.
    public var integer: Int? { kind == .decimalInteger ? Int(text) : nil }

    /// A decimal integer's or decimal float's value.
    public var number: Double? {
        switch kind {
        case .decimalInteger, .decimalFloat: Double(text)
        default: nil
        }
    }

    /// A decimal resolution's value.
    public var resolution: HLSResolution? { kind == .resolution ? HLSResolution(text) : nil }

    /// The value as it goes back into an attribute list: quoted strings in quotes.
    public var formatted: String { isQuoted ? "\"" + text + "\"" : text }
}
