import ABRLab
import Foundation

/// A JSON value as Python's `json.dumps` writes one: booleans apart from numbers, integers apart
/// from fractions.
enum JSONValue: Decodable, Equatable {
    case null
    case flag(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case text(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
        else if let integer = try? container.decode(Int64.self) { self = .integer(integer) }
        else if let unsigned = try? container.decode(UInt64.self) { self = .unsigned(unsigned) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .text(text) }
        else if let members = try? container.decode([String: JSONValue].self) { self = .object(members) }
        else { self = .array(try container.decode([JSONValue].self)) }
    }

    private var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    private var text: String? { if case .text(let text) = self { text } else { nil } }

    /// The value as Python's `repr` writes it, so a value of the wrong kind reads as the
    /// package's own check words it.
    var pythonText: String {
        switch self {
        case .null: "None"
        case .flag(let value): value ? "True" : "False"
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .number(let value): String(value)
        case .text(let value): "'\(value)'"
        case .array(let items): "[" + items.map(\.pythonText).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.keys.sorted().map { "'\($0)': \(members[$0]!.pythonText)" }.joined(separator: ", ") + "}"
        }
    }

    /// A parameter's value as `--param`'s text: numbers in their shortest form, flags as
    /// `true`/`false`; nil for a list, an object or null, which are no one value.
    var parameterText: String? {
        switch self {
        case .flag(let value): String(value)
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .number(let value): NumberText.plain(value)
        case .text(let value): value
        case .null, .array, .object: nil
        }
    }

    /// The value as a setting of kind `kind`; nil when it is another kind.
    func settingValue(as kind: SettingDeclaration.Value) -> SettingValue? {
        switch (kind, self) {
        case (.number, _): number.map(SettingValue.number)
        case (.integer, .integer(let value)): Int(exactly: value).map(SettingValue.integer)
        case (.seed, .integer(let value)): value >= 0 ? .seed(UInt64(value)) : nil
        case (.seed, .unsigned(let value)): .seed(value)
        case (.flag, .flag(let value)): .flag(value)
        case (.text, .text(let value)), (.choice, .text(let value)), (.path, .text(let value)): .text(value)
        case (.paths, .array(let items)), (.texts, .array(let items)):
            items.allSatisfy({ $0.text != nil }) ? .texts(items.compactMap(\.text)) : nil
        case (.numbers, .array(let items)):
            items.allSatisfy({ $0.number != nil }) ? .numbers(items.compactMap(\.number)) : nil
        default: nil
        }
    }
}
