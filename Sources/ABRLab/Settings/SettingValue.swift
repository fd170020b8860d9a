/// A setting's value as a front end gives it: the command line parses its text into one, Python
/// sends JSON that decodes into one. ``SettingDeclaration/Value`` says which case a setting takes.
public enum SettingValue: Equatable, Sendable {
    case number(Double)
    case integer(Int)
    case seed(UInt64)
    case flag(Bool)
    case text(String)
    case numbers([Double])
    case texts([String])

    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    public var seed: UInt64? { if case .seed(let value) = self { value } else { nil } }
    public var flag: Bool? { if case .flag(let value) = self { value } else { nil } }
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    public var numbers: [Double]? { if case .numbers(let values) = self { values } else { nil } }
    public var texts: [String]? { if case .texts(let values) = self { values } else { nil } }

    /// The value as a JSON fragment, numbers in Swift's shortest round-trip form: `run.json`'s
    /// `settings` and the plan fingerprint both write it, so the two never disagree.
    public var json: String {
        switch self {
        case .number(let value): Self.jsonNumber(value)
        case .integer(let value): String(value)
        case .seed(let value): String(value)
        case .flag(let value): String(value)
        case .text(let value): Self.jsonString(value)
        case .numbers(let values): "[" + values.map(Self.jsonNumber).joined(separator: ", ") + "]"
        case .texts(let values): "[" + values.map(Self.jsonString).joined(separator: ", ") + "]"
        }
    }

    private static func jsonNumber(_ value: Double) -> String { NumberText.plain(value) }

    static func jsonString(_ text: String) -> String {
        var bytes: [UInt8] = []
        PrettyJSON.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
