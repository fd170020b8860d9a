import ABRLabLua
import Foundation
import Testing
import TestSupport

/// docs/lua-api.md, docs/qoe.md and `Strategies/abrlab.d.lua` describe every table a script is
/// given exactly as the shim declares it (``LuaAPITable``): the same fields in the same order,
/// with the same types, and in the annotations the same one-line docs.
@Suite(.tags(.lua), .selectedByTags) struct LuaAPIDocsTests {
    static let root = StrategyLibraryTests.packageRoot

    static func read(_ path: String) throws -> [Substring] {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// A field as the docs give it: its name and the type they write (nil where they give names only).
    struct Documented: Equatable, CustomStringConvertible {
        let name: String
        let type: String?
        var description: String { type.map { "\(name): \($0)" } ?? name }
    }

    /// The `| \`name\` | type | …` rows under `heading`, up to the next heading.
    static func rows(in path: String, under heading: String) throws -> [Documented] {
        let lines = try read(path)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        var rows: [Documented] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.dropFirst(3).split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard cells.count >= 2 else { continue }
            let name = cells[0].prefix { $0 != "`" && $0 != "(" }
            rows.append(Documented(name: String(name), type: cells[1].trimmingCharacters(in: .whitespaces)))
        }
        return rows
    }

    /// Where the docs list each table: a table of rows, or for the video and the chunks a list in prose.
    static func documented(_ table: LuaAPITable) throws -> [Documented] {
        switch table {
        case .ctx: return try rows(in: "docs/lua-api.md", under: "## ctx — passed to `choose`")
        case .report: return try rows(in: "docs/lua-api.md", under: "## report — passed to `on_download`")
        case .progress: return try rows(in: "docs/lua-api.md", under: "### progress — passed to `check_abandon`")
        case .wait: return try rows(in: "docs/lua-api.md", under: "### wait — passed to `on_wait`")
        case .playback: return try rows(in: "docs/lua-api.md", under: "### playback — passed to `on_playback`")
        case .session: return try rows(in: "docs/lua-api.md", under: "## session — passed to `setup`")
        case .qoeSegment: return try rows(in: "docs/qoe.md", under: "### segment — first argument of `qoe`")
        case .qoeSession: return try rows(in: "docs/qoe.md", under: "### session — second argument of `qoe`")
        case .video:
            // "`video` holds the fields of [session](…) that do not depend on a session — `a`, `b`, … — and no …"
            let text = try read("docs/lua-api.md").joined(separator: " ")
            guard let start = text.range(of: "that do not depend on a session —"),
                  let end = text.range(of: "— and no", range: start.upperBound..<text.endIndex) else { return [] }
            return text[start.upperBound..<end.lowerBound].split(separator: "`").enumerated()
                .filter { $0.offset % 2 == 1 }.map { Documented(name: String($0.element), type: nil) }
        case .chunk:
            // In ctx's last_chunks row: "each `{size_bytes = integer, available_s = number, …}`".
            let row = try read("docs/lua-api.md").first { $0.hasPrefix("| `last_chunks`") } ?? ""
            guard let open = row.range(of: "`{"), let close = row.range(of: "}`", range: open.upperBound..<row.endIndex) else { return [] }
            return row[open.upperBound..<close.lowerBound].split(separator: ",").map { pair in
                let parts = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                return Documented(name: parts[0], type: parts.count > 1 ? parts[1] : nil)
            }
        }
    }

    /// The type a field's kind names, without its nil.
    static func baseType(_ kind: LuaAPIField.Kind) -> String {
        switch kind {
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .string: "string"
        case .integers: "integer[]"
        case .numbers: "number[]"
        case .tables: "table[]"
        case .table: "table"
        case .function: "function"
        }
    }

    /// The type as the docs' tables write it.
    static func markdownType(_ field: LuaAPIField) -> String {
        baseType(field.kind) + (field.isOptional ? " or nil" : "")
    }

    /// What `where` lacks and adds against the declaration, or that its order differs; nil when
    /// it lists the declared fields in order.
    static func difference(_ listed: [String], _ declared: [String], where place: String) -> String? {
        if listed == declared { return nil }
        let missing = declared.filter { !listed.contains($0) }
        let extra = listed.filter { !declared.contains($0) }
        if missing.isEmpty && extra.isEmpty { return "\(place) lists the fields in another order than declared: \(listed)" }
        return "\(place) lacks \(missing) and adds \(extra)"
    }

    @Test(arguments: LuaAPITable.allCases)
    func theDocsListEveryFieldWithItsType(_ table: LuaAPITable) throws {
        let documented = try Self.documented(table)
        let declared = table.fields
        let file = table == .qoeSegment || table == .qoeSession ? "docs/qoe.md" : "docs/lua-api.md"
        let difference = Self.difference(documented.map(\.name), declared.map(\.name), where: "\(file), \(table.name)")
        #expect(difference == nil)
        for field in declared {
            guard let row = documented.first(where: { $0.name == field.name }), let type = row.type else { continue }
            let expected = Self.markdownType(field)
            let matches = field.kind == .function ? type.hasPrefix("function") && !field.isOptional : type == expected
            #expect(matches, "\(table.name).\(field.name): the docs say \(type), the declaration \(expected)")
        }
    }

    /// A field of an annotated class: its name, its LuaCATS type ("function" for a method) and doc.
    struct Annotated: Equatable {
        let name: String
        let type: String
        let doc: String
    }

    /// Every class of abrlab.d.lua with its `---@field` lines, then the functions defined on the
    /// local that stands for it (`local Context = {}`), each with the text of its doc comment.
    static func annotations() throws -> [String: [Annotated]] {
        var classes: [String: [Annotated]] = [:]
        var locals: [String: String] = [:]
        var current: String?
        var comment: [String] = []
        for line in try read("Strategies/abrlab.d.lua") {
            if line.hasPrefix("---@class ") {
                let name = String(line.dropFirst(10).prefix { $0 != " " })
                current = name
                classes[name] = []
                continue
            }
            if line.hasPrefix("---@field "), let owner = current {
                let rest = line.dropFirst(10)
                let name = rest.prefix { $0 != " " }
                let (type, doc) = splitType(rest.dropFirst(name.count + 1))
                classes[owner, default: []].append(Annotated(name: String(name), type: type, doc: doc))
                continue
            }
            // Parameters and results keep the comment above them for the function below.
            if line.hasPrefix("---@") { continue }
            if line.hasPrefix("---") {
                comment.append(String(line.dropFirst(3)))
                continue
            }
            if line.hasPrefix("local "), line.hasSuffix(" = {}"), let owner = current {
                locals[String(line.dropFirst(6).prefix { $0 != " " })] = owner
            } else if line.hasPrefix("function "), let dot = line.firstIndex(where: { $0 == "." || $0 == ":" }),
                      let owner = locals[String(line.dropFirst(9)[..<dot])] {
                let name = line[line.index(after: dot)...].prefix { $0 != "(" }
                classes[owner, default: []].append(Annotated(name: String(name), type: "function", doc: comment.joined(separator: " ")))
            }
            comment = []
        }
        return classes
    }

    /// Splits "T doc…" where T may hold spaces inside <…>, (…) or {…}.
    static func splitType(_ text: Substring) -> (String, String) {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "<", "(", "{": depth += 1
            case ">", ")", "}": depth -= 1
            case " " where depth == 0:
                return (String(text[..<index]), String(text[text.index(after: index)...]))
            default: break
            }
        }
        return (String(text), "")
    }

    @Test(arguments: LuaAPITable.allCases)
    func theAnnotationsMatchTheDeclaration(_ table: LuaAPITable) throws {
        let annotated = try #require(try Self.annotations()[table.className], "abrlab.d.lua has no class \(table.className)")
        let declared = table.fields
        // Fields first, then the functions, each in the declaration's order.
        let expected = declared.filter { $0.kind != .function } + declared.filter { $0.kind == .function }
        let difference = Self.difference(annotated.map(\.name), expected.map(\.name), where: "abrlab.d.lua, \(table.className)")
        #expect(difference == nil)
        for field in expected {
            guard let annotation = annotated.first(where: { $0.name == field.name }) else { continue }
            let type = field.annotation ?? Self.baseType(field.kind)
            let types = field.isOptional ? [type + "?", type + "|nil"] : [type]
            #expect(types.contains(annotation.type), "\(table.className).\(field.name): annotated \(annotation.type), declared \(types[0])")
            #expect(annotation.doc == field.doc, "\(table.className).\(field.name): annotated «\(annotation.doc)», declared «\(field.doc)»")
        }
    }

    /// Units are in the names, and indices say they are 1-based.
    @Test(arguments: LuaAPITable.allCases)
    func unitsAndIndicesAreWhatTheNamesSay(_ table: LuaAPITable) {
        for field in table.fields {
            let suffix = field.name.split(separator: "_").last.map(String.init) ?? ""
            #expect(field.unit?.rawValue == LuaAPIField.Unit(rawValue: suffix)?.rawValue, "\(table.name).\(field.name): unit \(field.unit?.rawValue ?? "none")")
            if field.isOneBased {
                #expect(field.kind == .integer && field.doc.contains("1-based"), "\(table.name).\(field.name) is an index; its doc says so")
            }
        }
    }
}
