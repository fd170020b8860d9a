/// Bad input: a file that cannot be read or does not make sense. Its description is one line,
/// `file:line: message` (or `file: message` when no line applies), ready to print.
///
/// Messages quote input, so control characters and line separators in them are escaped (`\u{C}`):
/// a hostile file can neither split the line nor send terminal escape sequences.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the error is about: a file (or any input named by text), or settings of the run,
    /// which each front end names its own way (``described(naming:)``). An error about no file
    /// names the settings that made it; one found inside another input (an HLS attribute list, a
    /// Lua module) names the file that holds it.
    public enum Subject: Equatable, Sendable {
        /// A file, or an input named by text (a dataset id, a URL); never empty.
        case file(String)
        case settings([Setting])
    }

    public let subject: Subject
    public let line: Int?
    public let text: InputText

    public init(file: String, line: Int? = nil, _ message: String) {
        self.init(subject: .file(file), line: line, text: InputText(verbatim: Self.oneLine(message)))
    }

    /// An error about `file` whose message names settings.
    public init(file: String, line: Int? = nil, mentioning text: InputText) {
        self.init(subject: .file(file), line: line, text: text.mapText(Self.oneLine))
    }

    /// An error about `subject`, which a caller passes on (a file or the settings a value came from).
    public init(_ subject: Subject, line: Int? = nil, _ text: InputText) {
        self.init(subject: subject, line: line, text: text.mapText(Self.oneLine))
    }

    /// An error about a setting's value.
    public init(setting: Setting, _ text: InputText) {
        self.init(subject: .settings([setting]), line: nil, text: text.mapText(Self.oneLine))
    }

    /// An error about settings that only together are wrong.
    public init(settings: [Setting], _ text: InputText) {
        self.init(subject: .settings(settings), line: nil, text: text.mapText(Self.oneLine))
    }

    /// This error about `subject` (at `line`) instead, its message kept.
    public func about(_ subject: Subject, line: Int? = nil) -> InputError {
        InputError(subject: subject, line: line, text: text)
    }

    private init(subject: Subject, line: Int?, text: InputText) {
        self.subject = subject
        self.line = line
        self.text = text
    }

    /// The file, or the settings by their keys.
    public var file: String { Self.name(subject, naming: \.rawValue) }

    /// The message, settings named by their keys.
    public var message: String { text.description }

    /// This error followed by a traceback on the lines after it, kept as it is: the one
    /// multi-line error, which a user asks for (`--verbose` Lua errors).
    public func appending(traceback: String) -> InputError {
        InputError(subject: subject, line: line, text: text.appending(verbatim: "\n" + traceback))
    }

    public var description: String { described(naming: \.rawValue) }

    /// The one line, settings named by `naming`.
    public func described(naming: (Setting) -> String) -> String {
        Self.place(file: Self.name(subject, naming: naming), line: line) + text.rendered(naming: naming)
    }

    private static func name(_ subject: Subject, naming: (Setting) -> String) -> String {
        switch subject {
        case .file(let file): file
        case .settings(let settings): settings.map(naming).joined(separator: "/")
        }
    }

    /// `file:line: `, `file: ` or nothing, the prefix both errors and warnings use.
    static func place(file: String, line: Int?) -> String {
        let file = oneLine(file)
        if let line { return "\(file):\(line): " }
        return file.isEmpty ? "" : "\(file): "
    }

    /// `text` as a message quotes it: at most `limit` characters, a longer one cut in the middle
    /// at `…` (its start and its end kept: a path's folder and file name), so one huge value from
    /// an input cannot make a line of megabytes. Costs `limit`, not the text's length.
    public static func excerpt(_ text: some StringProtocol, limit: Int = 80) -> String {
        let limit = max(limit, 2)
        guard text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex).map({ $0 < text.endIndex }) ?? false else { return String(text) }
        let tail = limit / 4
        let head = text.index(text.startIndex, offsetBy: limit - tail - 1)
        let end = text.index(text.endIndex, offsetBy: -tail)
        return String(text[..<head]) + "…" + String(text[end...])
    }

    /// `text` with control characters other than tab, and Unicode line separators, written as `\u{…}`.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: breaksLine) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if breaksLine(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}")
    }
}

/// Something suspicious that does not stop loading, e.g. values that look like the wrong unit.
public struct InputWarning: Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let text: InputText

    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        text = InputText(verbatim: InputError.oneLine(message))
    }

    /// A warning whose message names settings.
    public init(file: String, line: Int? = nil, mentioning text: InputText) {
        self.file = file
        self.line = line
        self.text = text.mapText(InputError.oneLine)
    }

    /// The message, settings named by their keys.
    public var message: String { text.description }

    public var description: String { described(naming: \.rawValue) }

    /// The one line, settings named by `naming`.
    public func described(naming: (Setting) -> String) -> String {
        InputError.place(file: file, line: line) + "warning: " + text.rendered(naming: naming)
    }
}
