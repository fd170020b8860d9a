import ABRLab

/// One `id.key=value` override of a Lua strategy's parameter, as given on the command line.
public struct LuaParamOverride: Hashable, Sendable {
    public let strategyID: String
    public let key: String
    /// The value as text; it is read with the type of the parameter's default.
    public let value: String

    public init(strategyID: String, key: String, value: String) {
        self.strategyID = strategyID
        self.key = key
        self.value = value
    }

    /// Parses `id.key=value`; the key is the part after the last dot before `=`, so ids may
    /// contain dots.
    public init(parsing text: String) throws(InputError) {
        guard let equals = text.firstIndex(of: "="),
              let dot = text[..<equals].lastIndex(of: "."),
              dot > text.startIndex, text.index(after: dot) < equals else {
            throw InputError(setting: .param, "parameter override '\(text)' must look like id.key=value")
        }
        self.init(
            strategyID: String(text[..<dot]),
            key: String(text[text.index(after: dot)..<equals]),
            value: String(text[text.index(after: equals)...])
        )
    }

    /// Overrides grouped by strategy id, then key, as ``LuaStrategyLoader`` takes them;
    /// a key given twice for one id is an error.
    public static func group(_ overrides: [LuaParamOverride]) throws(InputError) -> [String: [String: String]] {
        var grouped: [String: [String: String]] = [:]
        for override in overrides {
            guard grouped[override.strategyID, default: [:]].updateValue(override.value, forKey: override.key) == nil else {
                throw InputError(setting: .param, "parameter \(override.strategyID).\(override.key) is given twice")
            }
        }
        return grouped
    }
}
