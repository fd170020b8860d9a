import ABRLab

/// The settings table rendered for the other faces: docs/settings.md (a test holds the file to
/// ``markdown``) and the JSON the C interface hands Python, from which it builds its keyword
/// checks, defaults and `help()`.
public enum SettingTable {
    /// One row per setting, grouped by the commands that take it.
    public static func markdown() -> String {
        var lines = [
            "# Settings",
            "",
            "Every setting, as `Setting.declaration` (Sources/ABRLab/Settings/Setting+Declaration.swift) declares it:",
            "the command line's option is `--` and the key with `-` for `_`, Python's keyword is the key (`params` for",
            "`param`). A test holds this file to the table; `ABRLAB_UPDATE_GOLDEN=1 swift test --filter SettingTable`",
            "rewrites it.",
        ]
        // A command's own group also lists the settings it shares, with its default and help.
        let elsewhere = Set(Setting.allCases.flatMap(\.declaration.elsewhere.keys))
        let groups: [(String, (SettingDeclaration) -> Bool)] = [
            ("Sessions (compare, run, replay, export hls, Python)", { $0.commands == SettingDeclaration.sessionCommands }),
            ("Python's environments only", { $0.commands == ["python"] }),
            ("compare", { $0.commands.contains("compare") && !$0.commands.contains("run") }),
        ] + (["traces generate", "videos generate"] + elsewhere.subtracting(["traces generate", "videos generate"]).sorted()).map { command in
            (command, { $0.commands == [command] })
        }
        for (title, member) in groups {
            lines += ["", "## \(title)", "", "| key | takes | default | range | applies to | faces | help |", "|---|---|---|---|---|---|---|"]
            for setting in Setting.allCases where member(setting.declaration.in(title)) {
                let entry = setting.declaration.in(title)
                let cells = [
                    "`\(setting.rawValue)`", entry.kindDescription, entry.defaultText, rangeText(entry),
                    entry.mechanics == .any ? "any profile" : entry.mechanics.rawValue, facesText(entry), entry.help,
                ]
                lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every setting Python may give, as a JSON array in the table's order.
    public static func json() -> String {
        let entries = Setting.allCases.filter(\.declaration.hasPythonKeyword).map { setting in
            let entry = setting.declaration
            let fields: [(String, String)] = [
                ("keyword", SettingValue.text(setting.pythonKeyword).json),
                ("flag", entry.hasCommandLineFlag ? SettingValue.text(setting.flag).json : "null"),
                ("kind", SettingValue.text(kindName(entry.value)).json),
                ("takes", SettingValue.text(entry.kindDescription).json),
                ("choices", choices(entry.value).map { SettingValue.texts($0).json } ?? "null"),
                ("default", entry.fixedDefault?.json ?? "null"),
                ("default_text", SettingValue.text(entry.defaultText).json),
                ("range", SettingValue.text(rangeText(entry)).json),
                ("applies_to", SettingValue.text(entry.mechanics == .any ? "any profile" : entry.mechanics.rawValue).json),
                ("help", SettingValue.text(entry.help).json),
            ]
            return "{" + fields.map { "\(SettingValue.text($0.0).json): \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n" + entries.joined(separator: ",\n") + "\n]"
    }

    /// The kind's name as Python checks it.
    public static func kindName(_ value: SettingDeclaration.Value) -> String {
        switch value {
        case .number: "number"
        case .integer: "integer"
        case .seed: "seed"
        case .flag: "flag"
        case .text: "text"
        case .choice: "choice"
        case .path: "path"
        case .paths: "paths"
        case .numbers: "numbers"
        case .texts: "texts"
        }
    }

    private static func choices(_ value: SettingDeclaration.Value) -> [String]? {
        if case .choice(let choices) = value { choices } else { nil }
    }

    private static func rangeText(_ entry: SettingDeclaration) -> String {
        entry.range == .any ? "" : String(entry.rangeMessage.dropFirst("must be ".count))
    }

    private static func facesText(_ entry: SettingDeclaration) -> String {
        switch entry.faces {
        case .both: "CLI, Python"
        case .commandLineOnly(let why): "CLI only: \(why)"
        case .pythonOnly(let why): "Python only: \(why)"
        }
    }
}
