import ABRLab
import ABRLabResults
import Foundation

/// A `--param-grid` file: parameter settings listed one per line, for sweeps that are not a
/// cartesian product (coupled parameters, random or Latin-hypercube samples, a hand-picked set).
///
///     # lines starting with # and blank lines are skipped
///     bola.gp,bola.capacity_s,robust_mpc.horizon
///     3,20,
///     8,30,
///     ,,3
///
/// The header names `id.key` columns (as `--param` does); each later line is one setting per
/// strategy whose cells it fills (all of that strategy's cells, or none of them). Fields follow
/// RFC 4180 (quote a value holding a comma), one line per record. Lines end in LF or CRLF, and a
/// leading UTF-8 byte order mark is skipped, so files saved by spreadsheets read as written.
public struct ParamGrid: Sendable {
    /// One setting of one strategy and the line that gave it.
    public struct Row: Equatable, Sendable {
        public let line: Int
        public let values: [String: String]

        public init(line: Int, values: [String: String]) {
            self.line = line
            self.values = values
        }
    }

    /// Settings one run holds at most, grid lines and `--param` combinations alike: each is a
    /// row of the results, whose memory (about 6.5 kB: 650 MB for this many) and sessions grow
    /// with the count.
    public static let maximumSettings = 100_000

    /// The line number of data line `count` (from 1, after the header; blank lines and comments
    /// are not data), or `nil` when the text has fewer.
    static func line(ofDataLine count: Int, in text: String) -> Int? {
        var dataLines = -1
        for (number, content) in Lines(text) where isData(content) {
            dataLines += 1
            if dataLines == count { return number }
        }
        return nil
    }

    /// Whether a line holds data: not blank, not a comment (`#` after leading white space).
    static func isData(_ content: Substring) -> Bool {
        let first = content.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard let first, first != UInt8(ascii: "#") else { return false }
        // Other white space is rare: trimmed the slow way only where a line starts with a non-ASCII byte.
        guard first >= 0x80 else { return true }
        let trimmed = content.trimmingCharacters(in: .whitespaces)
        return !trimmed.isEmpty && !trimmed.hasPrefix("#")
    }

    /// The file as named on the command line, for errors.
    public let file: String
    /// Each strategy's settings in file order.
    public private(set) var rows: [String: [Row]] = [:]
    /// The header's keys of each strategy id, in name order: every row of the strategy sets all of them.
    private var columnKeys: [String: [String]] = [:]

    /// Every key the file sets for `id`, in name order.
    public func keys(for id: String) -> [String] {
        rows[id] == nil ? [] : columnKeys[id] ?? []
    }

    /// Keys of `id` whose value differs between two of its settings, in name order: the ones
    /// that name its rows.
    public func sweptKeys(for id: String) -> Set<String> {
        let settings = rows[id] ?? []
        return Set(keys(for: id).filter { key in
            guard let first = settings.first?.values[key] else { return false }
            return settings.contains { $0.values[key] != first }
        })
    }

    /// Reads the file, refused past ``InputFile/maximumBytes`` (by the size of what a link
    /// points to) like every other input.
    public init(contentsOf path: String) throws(InputError) {
        let data = try InputFile.read(URL(fileURLWithPath: path))
        // Decoding would replace bytes that are not UTF-8 with U+FFFD: a value would reach its
        // script altered, and two different values could look alike.
        guard let text = String(validating: data, as: UTF8.self) else {
            var line = 1
            for row in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                if String(validating: row, as: UTF8.self) == nil { break }
                line += 1
            }
            throw InputError(file: path, line: line, "is not UTF-8 text; parameter values reach their scripts unchanged, so write the file as UTF-8")
        }
        try self.init(text, file: path)
    }

    /// Parses `text`; more than `maximumSettings` settings is an error at the line that passes it.
    public init(_ text: String, file: String, maximumSettings: Int = Self.maximumSettings) throws(InputError) {
        self.file = file
        // Every data line sets at least one setting, so a file with too many is refused from a
        // scan of its bytes, before any line is parsed.
        if let line = Self.line(ofDataLine: maximumSettings + 1, in: text) {
            throw InputError(file: file, line: line, "passes \(maximumSettings) settings, the most one run holds; split the grid into several runs")
        }
        var columns: [(id: String, key: String)]?
        var seen: [String: [[String: String]: Int]] = [:]
        var settingCount = 0
        for (line, content) in Lines(text) {
            guard Self.isData(content) else { continue }
            let fields = try Self.fields(content, file: file, line: line)
            guard let header = columns else {
                let parsed = try Self.header(fields, file: file, line: line)
                columns = parsed
                for (id, key) in parsed { columnKeys[id, default: []].append(key) }
                columnKeys = columnKeys.mapValues { $0.sorted() }
                continue
            }
            guard fields.count == header.count else {
                throw InputError(file: file, line: line, "has \(fields.count) fields, the header \(header.count)")
            }
            var settings: [String: [String: String]] = [:]
            var empty: [String: String] = [:]
            for (column, field) in zip(header, fields) {
                let value = field.trimmingCharacters(in: .whitespaces)
                if value.isEmpty { empty[column.id] = column.key } else { settings[column.id, default: [:]][column.key] = value }
            }
            guard !settings.isEmpty else { throw InputError(file: file, line: line, "sets no parameter") }
            for id in settings.keys.sorted() {
                if let key = empty[id], let given = settings[id]?.keys.sorted().first {
                    throw InputError(file: file, line: line, "sets \(id).\(given) but not \(id).\(key); fill all of \(id)'s columns or none")
                }
                settingCount += 1
                guard settingCount <= maximumSettings else {
                    throw InputError(file: file, line: line, "passes \(maximumSettings) settings, the most one run holds; split the grid into several runs")
                }
                let values = settings[id] ?? [:]
                if let earlier = seen[id, default: [:]].updateValue(line, forKey: values) {
                    throw InputError(file: file, line: line, "repeats the \(id) setting of line \(earlier)")
                }
                rows[id, default: []].append(Row(line: line, values: values))
            }
        }
        guard columns != nil else { throw InputError(file: file, "has no header line (id.key columns)") }
        guard !rows.isEmpty else { throw InputError(file: file, "lists no settings under its header") }
    }

    /// The lines of a text numbered from 1, split on LF with a CR before it dropped, after a
    /// leading byte order mark. Splitting the UTF-8 bytes keeps CRLF apart, which `Character`s
    /// (one grapheme for `\r\n`) would not; lines are made one at a time, not kept.
    struct Lines: Sequence, IteratorProtocol {
        private let utf8: String.UTF8View
        private var start: String.Index
        private var number = 0

        init(_ text: String) {
            utf8 = text.utf8
            start = utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? utf8.index(utf8.startIndex, offsetBy: 3) : utf8.startIndex
        }

        mutating func next() -> (number: Int, text: Substring)? {
            guard start < utf8.endIndex else { return nil }
            let newline = utf8[start...].firstIndex(of: UInt8(ascii: "\n"))
            var end = newline ?? utf8.endIndex
            if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") { end = utf8.index(before: end) }
            let line = Substring(utf8[start..<end])
            start = newline.map { utf8.index(after: $0) } ?? utf8.endIndex
            number += 1
            return (number, line)
        }
    }

    private static func header(_ fields: [String], file: String, line: Int) throws(InputError) -> [(id: String, key: String)] {
        var columns: [(id: String, key: String)] = []
        for field in fields {
            let name = field.trimmingCharacters(in: .whitespaces)
            // `id.key` as `--param` reads it: the id runs to the last dot, both parts non-empty.
            guard !name.contains("="), let dot = name.lastIndex(of: "."), dot > name.startIndex, name.index(after: dot) < name.endIndex else {
                throw InputError(file: file, line: line, "column '\(name)' is not of the form id.key")
            }
            let column = (id: String(name[..<dot]), key: String(name[name.index(after: dot)...]))
            guard !columns.contains(where: { $0 == column }) else {
                throw InputError(file: file, line: line, "column '\(name)' appears twice")
            }
            columns.append(column)
        }
        return columns
    }

    /// The fields of one line, quotes removed as ``CSVTable`` removes them; an empty line is
    /// one empty field.
    static func fields(_ text: Substring, file: String, line: Int) throws(InputError) -> [String] {
        try CSVTable.records(text, file: file, firstLine: line).first?.fields ?? [""]
    }
}
