extension SettingDeclaration {
    /// The default when it is a value; nil when an absent setting leaves the choice to the
    /// profile, the video or the model.
    public var fixedDefault: SettingValue? {
        if case .value(let value) = defaultValue { value } else { nil }
    }

    /// Refuses a value of the wrong kind or out of range, in one message per rule.
    public func check(_ value: SettingValue, as setting: Setting) throws(InputError) {
        switch (self.value, value) {
        case (.number, .number(let number)):
            try check(number: number, setting)
        case (.integer, .integer(let integer)):
            try check(number: Double(integer), setting)
        case (.numbers, .numbers(let numbers)):
            guard !numbers.isEmpty else { throw InputError(setting: setting, "needs at least one number") }
            for number in numbers { try check(number: number, setting) }
        case (.choice(let choices), .text(let text)):
            guard choices.contains(text) else {
                throw InputError(setting: setting, "'\(text)' is not one of \(choices.joined(separator: ", "))")
            }
        case (.seed, .seed), (.flag, .flag), (.text, .text), (.path, .text):
            break
        case (.paths, .texts(let texts)), (.texts, .texts(let texts)):
            guard !texts.isEmpty else { throw InputError(setting: setting, "needs at least one value") }
        default:
            throw InputError(setting: setting, "takes \(kindDescription)")
        }
    }

    private func check(number: Double, _ setting: Setting) throws(InputError) {
        let fits = switch range {
        case .any: number.isFinite
        case .positive: number.isFinite && number > 0
        case .nonNegative: number.isFinite && number >= 0
        case .closed(let lower, let upper): number >= lower && number <= upper
        case .positiveUpTo(let upper): number > 0 && number <= upper
        }
        if !fits { throw InputError(setting: setting, InputText(verbatim: rangeMessage)) }
    }

    /// The one message a value out of range gets.
    public var rangeMessage: String {
        let integer = if case .integer = value { true } else { false }
        let of = switch unit {
        case .seconds: " of seconds"
        case .kbps: " of kbps"
        default: ""
        }
        let suffix = [.milliseconds, .mebibytes].contains(unit) ? " \(unit.rawValue)" : ""
        switch range {
        case .any: return "must be a finite number"
        case .positive: return integer ? "must be positive" : "must be a positive number\(of)"
        case .nonNegative: return "must be a number\(of) ≥ 0"
        case .closed(let lower, let upper):
            let bounds = "from \(NumberText.plain(lower)) to \(NumberText.plain(upper))"
            return of.isEmpty ? "must be \(bounds)\(suffix)" : "must be a number\(of) \(bounds)"
        case .positiveUpTo(let upper):
            return of.isEmpty ? "must be above 0 and at most \(NumberText.plain(upper))" : "must be a positive number\(of), at most \(NumberText.plain(upper))"
        }
    }

    /// The one message a value of the wrong kind gets, `shown` as the face shows what it was
    /// given (the command line's text in quotes, Python's `repr`).
    public func kindMessage(shown: String) -> String {
        "takes \(kindDescription), not \(shown)"
    }

    /// What the setting takes, for a value of another kind.
    public var kindDescription: String {
        switch value {
        case .number: "a number"
        case .integer: "an integer"
        case .seed: "an integer from 0 to 2^64 - 1"
        case .flag: "true or false"
        case .text, .path: "a string"
        case .choice(let choices): "one of \(choices.joined(separator: ", "))"
        case .paths: "a path or a list of paths"
        case .numbers: "a list of numbers"
        case .texts: "a list of strings"
        }
    }
}

extension Setting {
    /// Refuses a value this setting's declaration refuses, in its one message: the check the
    /// engine, the generators and every face share.
    public func check(_ value: SettingValue) throws(InputError) {
        try declaration.check(value, as: self)
    }

    /// Refuses a number out of this setting's range (an integer setting's, as a number).
    public func check(_ number: Double) throws(InputError) {
        if case .integer = declaration.value, let integer = Int(exactly: number) {
            try check(.integer(integer))
        } else if case .integer = declaration.value {
            throw InputError(setting: self, InputText(verbatim: declaration.rangeMessage))
        } else {
            try check(.number(number))
        }
    }

    /// The default `command` gives this setting (the sessions' when nil), typed: what code that
    /// starts from it reads, so the value and the docs' words for it are one.
    public func defaultValue(in command: String? = nil) -> SettingValue {
        let declaration = command.map(declaration.in) ?? declaration
        guard let value = declaration.fixedDefault else { preconditionFailure("\(self) declares no default value") }
        return value
    }
}
