import ABRLab
import ABRLabLua
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
/// RFC 4180 (quote a value holding a comma), one line per record.
struct ParamGrid {
    /// One setting of one strategy and the line that gave it.
    struct Row: Equatable {
        let line: Int
        let values: [String: String]
    }

    /// The file as named on the command line, for errors.
    let file: String
    /// Each strategy's settings in file order.
    private(set) var rows: [String: [Row]] = [:]

    /// Every key the file sets for `id`, in name order.
    func keys(for id: String) -> [String] {
        Array(Set((rows[id] ?? []).flatMap(\.values.keys))).sorted()
    }

    /// Keys of `id` whose value differs between two of its settings, in name order: the ones
    /// that name its rows.
    func sweptKeys(for id: String) -> Set<String> {
        let settings = rows[id] ?? []
        return Set(keys(for: id).filter { key in Set(settings.map { $0.values[key] }).count > 1 })
    }

    init(contentsOf path: String) throws(InputError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(file: path, "cannot read the parameter grid")
        }
        try self.init(String(decoding: data, as: UTF8.self), file: path)
    }

    init(_ text: String, file: String) throws(InputError) {
        self.file = file
        var columns: [(id: String, key: String)]?
        var seen: [String: [[String: String]: Int]] = [:]
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let content = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = try Self.fields(String(content), file: file, line: line)
            guard let header = columns else {
                columns = try Self.header(fields, file: file, line: line)
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
                let values = settings[id] ?? [:]
                if let earlier = seen[id]?[values] {
                    throw InputError(file: file, line: line, "repeats the \(id) setting of line \(earlier)")
                }
                seen[id, default: [:]][values] = line
                rows[id, default: []].append(Row(line: line, values: values))
            }
        }
        guard columns != nil else { throw InputError(file: file, "has no header line (id.key columns)") }
        guard !rows.isEmpty else { throw InputError(file: file, "lists no settings under its header") }
    }

    private static func header(_ fields: [String], file: String, line: Int) throws(InputError) -> [(id: String, key: String)] {
        var columns: [(id: String, key: String)] = []
        for field in fields {
            let name = field.trimmingCharacters(in: .whitespaces)
            guard let parsed = try? LuaParamOverride(parsing: name + "="), !name.contains("=") else {
                throw InputError(file: file, line: line, "column '\(name)' is not of the form id.key")
            }
            guard !columns.contains(where: { $0 == (parsed.strategyID, parsed.key) }) else {
                throw InputError(file: file, line: line, "column '\(name)' appears twice")
            }
            columns.append((parsed.strategyID, parsed.key))
        }
        return columns
    }

    /// The fields of one line, quotes removed (RFC 4180).
    private static func fields(_ text: String, file: String, line: Int) throws(InputError) -> [String] {
        do throws(InputError) {
            return try CSVTable(text + "\n", file: file).header
        } catch {
            throw InputError(file: file, line: line, error.message)
        }
    }
}
