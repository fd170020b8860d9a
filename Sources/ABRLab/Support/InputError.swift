/// Bad input: a file that cannot be read or does not make sense. Its description is one line,
/// `file:line: message` (or `file: message` when no line applies), ready to print.
///
/// Messages quote input, so control characters and line separators in them are escaped (`\u{C}`):
/// a hostile file can neither split the line nor send terminal escape sequences.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = Self.oneLine(message)
    }

    private init(file: String, line: Int?, verbatim message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// This error followed by a traceback on the lines after it, kept as it is: the one
    /// multi-line error, which a user asks for (`--verbose` Lua errors).
    public func appending(traceback: String) -> InputError {
        InputError(file: file, line: line, verbatim: message + "\n" + traceback)
    }

    public var description: String { Self.place(file: file, line: line) + message }

    /// `file:line: `, `file: ` or nothing, the prefix both errors and warnings use.
    static func place(file: String, line: Int?) -> String {
        let file = oneLine(file)
        if let line { return "\(file):\(line): " }
        return file.isEmpty ? "" : "\(file): "
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
    public let message: String

    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = InputError.oneLine(message)
    }

    public var description: String { InputError.place(file: file, line: line) + "warning: " + message }
}
