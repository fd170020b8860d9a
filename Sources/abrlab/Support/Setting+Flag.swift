import ABRLab
import ABRLabCompare
import ABRLabSettings
import ArgumentParser

extension NameSpecification {
    /// The option a setting's key gives.
    static func setting(_ setting: Setting) -> NameSpecification {
        .customLong(String(setting.flag.dropFirst(2)))
    }
}

extension ArgumentHelp {
    /// A setting's help line from the table, with its unit, default and value name (ArgumentParser
    /// shows the default itself for an option with a default value: `showsDefault: false` there).
    static func setting(_ setting: Setting, in command: String? = nil, showsDefault: Bool = true) -> ArgumentHelp {
        let declaration = command.map(setting.declaration.in) ?? setting.declaration
        let unit = declaration.unit
        let units = [.seconds, .milliseconds, .kbps, .mebibytes].contains(unit) ? " Unit: \(unit.rawValue)." : ""
        let shown = if case .flag = declaration.value { "" } else if !showsDefault { "" } else { " (default: \(declaration.defaultText))" }
        return ArgumentHelp(declaration.help + units + shown, valueName: declaration.valueName)
    }
}

extension Setting {
    /// The option's text read by the table's kind and checked against its range, the one way a
    /// command reads a setting outside ``ExperimentOptions``; nil when the option is absent, and
    /// the command's own default (the value its table entry was made from) applies.
    func value(_ text: String?) throws(InputError) -> SettingValue? {
        guard let text else { return nil }
        let value = try SettingParsing.value(text, for: self)
        try declaration.check(value, as: self)
        return value
    }
}

extension ExperimentSettings {
    /// Options given as text, by setting: each read by the table's kind, then all checked, with
    /// the options ArgumentParser types itself (flags, repeated values), by the one door Python's
    /// keywords pass too (`init(given:)`).
    init(texts: [Setting: String?], values: [Setting: SettingValue] = [:]) throws(InputError) {
        var given = values
        // In the table's order, so of two wrong options the same one is named every time.
        for case let (setting, text?) in texts.sorted(by: { $0.key.index < $1.key.index }) { given[setting] = try SettingParsing.value(text, for: setting) }
        try self.init(given: given)
    }
}

/// Options that set numbers of one value, each read by the table and written where it goes
/// when given: a command lists them as data instead of a line of reading each.
struct NumberOptions<Target> {
    var options: [(setting: Setting, text: String?, into: WritableKeyPath<Target, Double>)]

    /// Writes each given option's number into `target`, refusing one the table refuses.
    func apply(to target: inout Target) throws(InputError) {
        for option in options {
            if let number = try option.setting.value(option.text)?.number { target[keyPath: option.into] = number }
        }
    }
}

extension InputError {
    /// The line the command line prints: settings named by their options.
    var commandLineText: String { described(naming: \.flag) }
}

extension InputWarning {
    var commandLineText: String { described(naming: \.flag) }
}

extension EmulationError {
    var commandLineText: String { described(naming: \.flag) }
}
