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
        // Hexadecimal, `inf` and `nan` all need a letter other than an exponent's `e`.
        guard text.utf8.allSatisfy({ decimalBytes.contains($0) }), let number = Double(text), number.isFinite else { return nil }
        return number
    }

    private static let decimalBytes = Set("0123456789+-.eE".utf8)

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
