import ABRLab
import Foundation

/// A CSV file read back: the header and rows of fields, quoted fields unquoted (RFC 4180, the
/// dialect ``CSVRow`` writes). For reading result folders, not traces.
public struct CSVTable: Sendable {
    public let header: [String]
    public let rows: [[String]]

    /// Parses `text`; `file` names the source in errors. Every row must have the header's width.
    public init(_ text: String, file: String) throws(InputError) {
        let records = try Self.records(text, file: file)
        guard let header = records.first?.fields else { throw InputError(file: file, "the file is empty") }
        for record in records where record.fields.count != header.count {
            throw InputError(file: file, line: record.line, "has \(record.fields.count) fields, the header \(header.count)")
        }
        self.header = header
        rows = records.dropFirst().map(\.fields)
    }

    /// The records of `text`, each with the line it ends on (counted from `firstLine`): fields
    /// split at commas, a field that starts with a quote runs to the next lone quote (newlines
    /// included), `""` inside it is one quote, and CRLF ends a record like LF.
    package static func records(_ text: some StringProtocol, file: String, firstLine: Int = 1) throws(InputError) -> [(fields: [String], line: Int)] {
        var records: [(fields: [String], line: Int)] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var atFieldStart = true
        var line = firstLine
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        while let scalar = pending {
            pending = iterator.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        quoted = false
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case ",":
                record.append(field)
                field = ""
                atFieldStart = true
            case "\r" where pending == "\n":
                continue
            case "\n":
                record.append(field)
                records.append((record, line))
                (record, field, atFieldStart) = ([], "", true)
                line += 1
            default:
                field.unicodeScalars.append(scalar)
                atFieldStart = false
            }
        }
        if quoted { throw InputError(file: file, line: line, "a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append((record, line))
        }
        return records
    }

    /// Reads and parses the file at `url`.
    public init(contentsOf url: URL) throws(InputError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw InputError(file: url.path, "cannot read the file")
        }
        try self.init(String(decoding: data, as: UTF8.self), file: url.path)
    }

    /// The index of `name` in the header, or an error naming `file`.
    public func column(_ name: String, file: String) throws(InputError) -> Int {
        guard let index = header.firstIndex(of: name) else { throw InputError(file: file, "has no column '\(name)'") }
        return index
    }
}
