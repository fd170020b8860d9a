import ABRLab

/// One declared parameter with its effective value.
public struct LuaParam: Hashable, Sendable {
    public let key: String
    public var value: LuaParamValue
    /// The script's `param_types` declares it `"integer"`: overrides must be integers.
    public let integerOnly: Bool

    public init(key: String, value: LuaParamValue, integerOnly: Bool = false) {
        self.key = key
        self.value = value
        self.integerOnly = integerOnly
    }

    /// `text` read as this parameter's value. An integer default also takes a
    /// non-integral number (`5.5` becomes a float) unless `param_types` declares it integer; booleans take `true`/`false`;
    /// strings take the text. `nil` when the text does not fit.
    public func parse(_ text: String) -> LuaParamValue? {
        switch value {
        case .integer where !integerOnly:
            if let integer = Int(text) { return .integer(integer) }
            guard let number = StrategyParamValue.decimalNumber(text) else { return nil }
            return .number(number)
        default:
            return value.parsingSameType(text)
        }
    }

    /// What an override must be, with its article, for messages.
    public var expectedType: String {
        switch value {
        case .integer where integerOnly: "an integer"
        case .integer, .number: "a number"
        default: value.typeNameWithArticle
        }
    }
}
