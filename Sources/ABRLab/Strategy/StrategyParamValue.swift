/// The value of a strategy parameter; its case (the type) is fixed by the default.
public enum StrategyParamValue: Hashable, Sendable, CustomStringConvertible, Encodable {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case string(String)

    /// The type's name, as Lua scripts and messages name it.
    public var typeName: String {
        switch self {
        case .number: "number"
        case .integer: "integer"
        case .boolean: "boolean"
        case .string: "string"
        }
    }

    /// The type's name with its article, for messages: "an integer", "a number".
    public var typeNameWithArticle: String {
        if case .integer = self { return "an integer" }
        return "a " + typeName
    }

    /// `text` read as a value of this value's type, or `nil` when it is not one: overrides must
    /// keep the type of the default.
    public func parsingSameType(_ text: String) -> StrategyParamValue? {
        switch self {
        case .number: Self.decimalNumber(text).map(StrategyParamValue.number)
        case .integer: Int(text).map(StrategyParamValue.integer)
        case .boolean: text == "true" ? .boolean(true) : text == "false" ? .boolean(false) : nil
        case .string: .string(text)
        }
    }

    /// `text` as a finite decimal number (`3`, `-0.5`, `1e-3`), or `nil`: Swift's `Double` also
    /// reads hexadecimal (`0x10`), `inf` and `nan`, which a parameter's value never means.
    public static func decimalNumber(_ text: String) -> Double? {
        var digits = 0
        var seenPoint = false
        var index = text.utf8.startIndex
        let bytes = text.utf8
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
            let exponentStart = index
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") { index = bytes.index(after: index) }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.endIndex, let number = Double(text), number.isFinite else { return nil }
        return number
    }

    /// The value with integers as numbers where exact, so two values a script sees alike are equal.
    public var canonical: StrategyParamValue {
        if case .integer(let value) = self, let number = Double(exactly: value) { return .number(number) }
        return self
    }

    public var description: String {
        switch self {
        case .number(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .string(let value): value
        }
    }
}

extension StrategyParamValue {
    /// Encodes as the bare JSON value (run.json records parameters this way).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
