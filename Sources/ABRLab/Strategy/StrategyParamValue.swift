/// The value of a strategy parameter; its case (the type) is fixed by the default.
public enum StrategyParamValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case string(String)

    /// The type's name with its article, for messages: "an integer", "a number".
    public var typeNameWithArticle: String {
        switch self {
        case .number: "a number"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .string: "a string"
        }
    }

    /// `text` read as a value of this value's type, or `nil` when it is not one.
    public func parsingSameType(_ text: String) -> StrategyParamValue? {
        switch self {
        case .number: Double(text).flatMap { $0.isFinite ? .number($0) : nil }
        case .integer: Int(text).map(StrategyParamValue.integer)
        case .boolean: text == "true" ? .boolean(true) : text == "false" ? .boolean(false) : nil
        case .string: .string(text)
        }
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
