/// One setting declared as data: what it takes, its default, its range, where it applies and one
/// help line. The command line's options, Python's keywords, validation, the docs table,
/// `run.json`'s `settings` and the plan fingerprint all read it (`Setting.declaration`).
public struct SettingDeclaration: Sendable {
    /// What a setting takes, with the unit its key ends in.
    public enum Value: Equatable, Sendable {
        case number(SettingUnit)
        case integer(SettingUnit)
        case seed
        case flag
        case text
        case choice([String])
        case path
        case paths
        case numbers(SettingUnit)
        case texts
    }

    /// What an absent setting means.
    public enum Default: Sendable {
        /// This value, whatever the profile.
        case value(SettingValue)
        /// Absent: the words say what takes its place (`the profile's count`).
        case none(String)
    }

    /// The values a setting accepts; anything else is refused with ``message``.
    public enum Range: Equatable, Sendable {
        case any
        case positive
        case nonNegative
        case closed(Double, Double)
        /// Above 0 and at most this.
        case positiveUpTo(Double)
    }

    /// The mechanics a setting changes: set on a profile without them, it is refused.
    public enum Mechanics: String, Sendable {
        case any
        case segmentBuffer = "segment buffer (sabre)"
        case live
    }

    /// Which front ends offer a setting: the command line's flag is `--` and the key with `-` for
    /// `_`, Python's keyword is the key. A setting one of them lacks says why.
    public enum Faces: Sendable {
        case both
        case commandLineOnly(why: String)
        case pythonOnly(why: String)
    }

    /// How a command outside ``commands`` takes the setting: a default and help of its own, as
    /// `videos generate`'s ladder has a value where a session's is the video's.
    public struct Elsewhere: Sendable {
        public let defaultValue: Default
        public let help: String

        public init(default defaultValue: Default, help: String) {
            self.defaultValue = defaultValue
            self.help = help
        }
    }

    public let value: Value
    public let defaultValue: Default
    public let range: Range
    public let mechanics: Mechanics
    /// The commands that take it (`compare`, `run`, `traces generate`, …; `python` for the
    /// environments).
    public let commands: [String]
    public let help: String
    /// What `--help` calls the option's value (`<kbps,...>`); nil: the option's own name.
    public let valueName: String?
    public let faces: Faces
    /// Commands outside ``commands`` that take the setting, each with its default and help.
    public let elsewhere: [String: Elsewhere]

    public init(
        _ value: Value, default defaultValue: Default, range: Range = .any, mechanics: Mechanics = .any,
        commands: [String], faces: Faces = .both, valueName: String? = nil, help: String, elsewhere: [String: Elsewhere] = [:]
    ) {
        self.value = value
        self.defaultValue = defaultValue
        self.range = range
        self.mechanics = mechanics
        self.commands = commands
        self.help = help
        self.valueName = valueName
        self.faces = faces
        self.elsewhere = elsewhere
    }

    /// The setting as `command` takes it: its own default and help where ``elsewhere`` gives
    /// them, else this declaration.
    public func `in`(_ command: String) -> SettingDeclaration {
        guard let use = elsewhere[command] else { return self }
        let faces: Faces = .commandLineOnly(why: "an option of \(command)")
        return SettingDeclaration(value, default: use.defaultValue, range: range, mechanics: mechanics, commands: [command], faces: faces, valueName: valueName, help: use.help)
    }

    /// Every command that takes the setting: ``commands`` and those ``elsewhere`` names.
    public var allCommands: [String] { commands + elsewhere.keys.sorted() }

    public var isFlag: Bool { value == .flag }

    /// The unit of a number or a count; `.none` for other kinds.
    public var unit: SettingUnit {
        switch value {
        case .number(let unit), .integer(let unit), .numbers(let unit): unit
        default: .none
        }
    }

    /// Whether a face it lacks is given a reason (every one is: `Faces` carries it).
    public var hasReason: Bool {
        switch faces {
        case .both: false
        case .commandLineOnly(let why), .pythonOnly(let why): !why.isEmpty
        }
    }

    public var hasCommandLineFlag: Bool { if case .pythonOnly = faces { false } else { true } }
    public var hasPythonKeyword: Bool { if case .commandLineOnly = faces { false } else { true } }

    /// The default as the docs and `--help` say it.
    public var defaultText: String {
        switch defaultValue {
        case .value(let value):
            switch value {
            case .text(let text): text
            case .numbers(let values): values.map { SettingValue.number($0).json }.joined(separator: ",")
            case .texts(let texts): texts.joined(separator: ",")
            default: value.json
            }
        case .none(let words): words
        }
    }
}

/// The unit a setting's key ends in (`_s`, `_ms`, `_kbps`, `_mb`), or what a count counts.
public enum SettingUnit: String, Sendable {
    case seconds = "s"
    case milliseconds = "ms"
    case kbps
    case mebibytes = "MiB"
    case instructions
    case segments
    case players
    case threads
    case states
    case traces
    /// A ratio, a probability, a weight: no unit.
    case none = ""
}
