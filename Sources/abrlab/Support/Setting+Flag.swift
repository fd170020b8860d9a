import ABRLab
import ABRLabCompare
import ArgumentParser

extension NameSpecification {
    /// The option a setting's key gives.
    static func setting(_ setting: Setting) -> NameSpecification {
        .customLong(String(setting.flag.dropFirst(2)))
    }
}

extension ArgumentHelp {
    /// A setting's help line from the table, with its unit and default (which ArgumentParser
    /// shows itself for an option with a default value: `showsDefault: false` there).
    static func setting(_ setting: Setting, in command: String? = nil, valueName: String? = nil, showsDefault: Bool = true) -> ArgumentHelp {
        let declaration = command.map(setting.declaration.in) ?? setting.declaration
        let unit = declaration.unit
        let units = [.seconds, .milliseconds, .kbps, .mebibytes].contains(unit) ? " Unit: \(unit.rawValue)." : ""
        let shown = if case .flag = declaration.value { "" } else if !showsDefault { "" } else { " (default: \(declaration.defaultText))" }
        return ArgumentHelp(declaration.help + units + shown, valueName: valueName)
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
