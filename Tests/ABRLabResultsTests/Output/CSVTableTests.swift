import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct CSVTableTests {
    @Test func readsBackWhatCSVRowWrites() throws {
        var row = CSVRow()
        row.add("bba")
        row.add("a, \"quoted\"\nline")
        row.add(1.5)
        row.add("")
        let text = CSVRow.line(["strategy", "error", "qoe", "empty"]) + row.line
        let table = try CSVTable(text, file: "s.csv")
        #expect(table.header == ["strategy", "error", "qoe", "empty"])
        #expect(table.rows == [["bba", "a, \"quoted\"\nline", "1.5", ""]])
        #expect(try table.column("qoe", file: "s.csv") == 2)
    }

    @Test func crlfLineEndsAndAMissingLastLineEndAreFine() throws {
        let table = try CSVTable("a,b\r\n1,2\r\n3,4", file: "x.csv")
        #expect(table.rows == [["1", "2"], ["3", "4"]])
    }

    @Test(arguments: [
        ("a,b\n1\n", "x.csv:2: has 1 fields, the header 2"),
        ("a,b\n\"1,2\n", "x.csv:3: a quoted field is not closed"),
        ("", "x.csv: the file is empty"),
    ])
    func malformedTablesNameFileAndLine(text: String, message: String) {
        #expect(throws: InputError.self) { try CSVTable(text, file: "x.csv") }
        do { _ = try CSVTable(text, file: "x.csv") } catch { #expect(error.description == message) }
    }

    @Test func anUnknownColumnIsAnError() throws {
        let table = try CSVTable("a\n1\n", file: "x.csv")
        #expect(throws: InputError(file: "x.csv", "has no column 'qoe_total'")) { try table.column("qoe_total", file: "x.csv") }
    }
}
