/// A parameter value of a Lua strategy; its case is fixed by the script's default.
public enum LuaParamValue: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case string(String)

    /// The Lua-side type name used in messages.
    public var typeName: String {
        switch self {
        case .number: "number"
        case .integer: "integer"
        case .boolean: "boolean"
        case .string: "string"
        }
    }

    /// The type name with its article, for messages: "an integer", "a number".
    public var typeNameWithArticle: String {
        if case .integer = self { return "an integer" }
        return "a " + typeName
    }

    /// `text` read as a value of this value's type, or `nil` when it is not one: overrides
    /// must keep the type of the default.
    public func parsingSameType(_ text: String) -> LuaParamValue? {
        switch self {
        case .number:
            guard let value = Double(text), value.isFinite else { return nil }
            return .number(value)
        case .integer:
            return Int(text).map(LuaParamValue.integer)
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .string:
            return .string(text)
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
