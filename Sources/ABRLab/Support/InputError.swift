/// Bad input: a file that cannot be read or does not make sense. Its description is one line,
/// `file:line: message` (or `file: message` when no line applies), ready to print.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { Self.place(file: file, line: line) + message }

    /// `file:line: `, `file: ` or nothing, the prefix both errors and warnings use.
    static func place(file: String, line: Int?) -> String {
        if let line { return "\(file):\(line): " }
        return file.isEmpty ? "" : "\(file): "
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
        self.message = message
    }

    public var description: String { InputError.place(file: file, line: line) + "warning: " + message }
}
