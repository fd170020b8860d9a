/// A parameter a strategy declares: its key, its value (the default until set) and, for text
/// parameters that pick one of a few behaviours, the values allowed.
public struct StrategyParam: Hashable, Sendable {
    public let key: String
    public var value: StrategyParamValue
    /// The only texts a string parameter accepts; empty when any text is fine.
    public let choices: [String]
    /// One line for listings and help.
    public let summary: String

    public init(key: String, value: StrategyParamValue, choices: [String] = [], summary: String = "") {
        self.key = key
        self.value = value
        self.choices = choices
        self.summary = summary
    }

    /// This parameter set from text, read with its default's type; `strategyID` and `subject` name it in errors.
    public func setting(_ text: String, strategyID: String, subject: InputError.Subject) throws(InputError) -> StrategyParam {
        guard let parsed = value.parsingSameType(text), choices.isEmpty || choices.contains(text) else {
            let expected = choices.isEmpty ? value.typeNameWithArticle : choices.joined(separator: " or ")
            throw InputError(subject, "parameter \(strategyID).\(key) needs \(expected), not '\(text)'")
        }
        var copy = self
        copy.value = parsed
        return copy
    }
}
