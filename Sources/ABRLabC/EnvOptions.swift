import ABRLab
import ABRLabCompare
import Foundation

/// The keyword arguments of `gymnasium.make("abrlab/ABR-v0", ...)`, as Python sends them: one
/// JSON object keyed by the settings table's Python keywords, each value decoded by its
/// declared kind and checked against its range once, here.
struct EnvOptions {
    let settings: ExperimentSettings

    var video: String? { settings.given[.video]?.text }
    var traces: [String]? { settings.given[.traces]?.texts }
    var experts: [String]? { settings.given[.experts]?.texts }
    var strategy_id: String? { settings.given[.strategyId]?.text }

    /// Every setting Python may give, by keyword.
    static let keywords: [String: Setting] = Dictionary(
        uniqueKeysWithValues: Setting.allCases.filter(\.declaration.hasPythonKeyword).map { ($0.pythonKeyword, $0) }
    )

    static func parse(_ json: String) throws(EnvError) -> EnvOptions {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8)) else {
            throw .invalid("options: not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { keywords[$0] == nil }) {
            throw .invalid("unknown option '\(unknown)'; options are \(keywords.keys.sorted().joined(separator: ", "))")
        }
        var given: [Setting: SettingValue] = [:]
        for (key, json) in object where json != .null {
            let setting = keywords[key]!
            guard let value = json.settingValue(as: setting.declaration.value) else {
                throw .setting("\(key): \(setting.declaration.kindMessage(shown: json.pythonText))", keywords: [key])
            }
            given[setting] = value
        }
        do {
            return EnvOptions(settings: try ExperimentSettings(given: given))
        } catch {
            throw EnvError(error)
        }
    }
}

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

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .flag(flag) }
        else if let integer = try? container.decode(Int64.self) { self = .integer(integer) }
        else if let unsigned = try? container.decode(UInt64.self) { self = .unsigned(unsigned) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .text(text) }
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
