import ABRLab
import ABRLabCompare
import ABRLabSettings
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
            if setting == .param, case .object(let members) = json {
                given[.param] = .texts(try assignments(members))
                continue
            }
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

    /// `params` as Python's dict sends it, typed (`{"bba.reservoir_s": 5}`), as the
    /// `id.key=value` assignments `--param` gives: one value each, a number, a string or a flag,
    /// read by the strategy's own parameter types as the command line's text is.
    static func assignments(_ members: [String: JSONValue]) throws(EnvError) -> [String] {
        try members.keys.sorted().map { key throws(EnvError) -> String in
            guard key.contains(".") else { throw .setting("params: keys are 'strategy_id.key', not '\(key)'", keywords: ["params"]) }
            guard let text = members[key]!.parameterText else {
                throw .setting("params: \(key) takes one number, string or True/False, not \(members[key]!.pythonText)", keywords: ["params"])
            }
            return "\(key)=\(text)"
        }
    }
}
