import ABRLab
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct InputErrorTests {
    @Test(arguments: [
        ("line\nbreak", "f:3: line\\u{A}break"),
        ("cr\r", "f:3: cr\\u{D}"),
        ("escape \u{1B}[2J", "f:3: escape \\u{1B}[2J"),
        ("separators \u{2028}\u{2029}\u{85}", "f:3: separators \\u{2028}\\u{2029}\\u{85}"),
        ("tab\tstays, é too", "f:3: tab\tstays, é too"),
    ])
    func controlCharactersAreEscaped(_ message: String, _ expected: String) {
        let error = InputError(file: "f", line: 3, message)
        #expect(error.description == expected)
        #expect(InputError(file: "f", line: 3, error.message) == error, "escaping twice changes nothing")
    }

    @Test func fileNamesAreEscapedToo() {
        #expect(InputError(file: "a\nb.csv", "bad").description == "a\\u{A}b.csv: bad")
        #expect(InputWarning(file: "a\nb.csv", "odd").description == "a\\u{A}b.csv: warning: odd")
    }

    @Test func aSubjectPassedOnLeadsTheLine() {
        #expect(InputError(.settings([.param, .paramGrid]), "x needs \(Setting.qoe)").description == "param/param_grid: x needs qoe")
        #expect(InputError(.file("grid.csv"), line: 4, "bad").description == "grid.csv:4: bad")
    }

    /// Every error names what it is about: no source of the library makes one about an unnamed file.
    @Test func noErrorInTheSourcesNamesAnEmptyFile() throws {
        let pattern = try NSRegularExpression(pattern: #"InputError\(\s*file:\s*"""#)
        var unnamed: [String] = []
        let sources = PackageRoot.file("Sources")
        for case let relative as String in FileManager.default.enumerator(atPath: sources.path) ?? .init() where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { unnamed.append(relative) }
        }
        #expect(unnamed == [])
    }

    @Test func aTracebackKeepsItsLines() {
        let error = InputError(file: "x.lua", line: 2, "boom").appending(traceback: "stack traceback:\n\tx.lua:2: in main chunk")
        #expect(error.description == "x.lua:2: boom\nstack traceback:\n\tx.lua:2: in main chunk")
    }
}
