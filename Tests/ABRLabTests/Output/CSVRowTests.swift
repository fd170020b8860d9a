import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct CSVRowTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("with space", "with space"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        ("é, ü", "\"é, ü\""),
    ])
    func quotesOnlyWhenNeeded(value: String, expected: String) {
        var row = CSVRow()
        row.add(value)
        #expect(row.text == expected)
    }

    @Test(arguments: [
        0.1, 1e-7, 1e22, 77.88468025140871, 0.30000000000000004, 1.0 / 3, 123456789.123456789,
        .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, 0, 4300, 1e16, 0.95,
    ])
    func doublesRoundTrip(value: Double) throws {
        var row = CSVRow()
        row.add(value)
        let parsed = try #require(Double(row.text))
        #expect(parsed == value)
        #expect(!row.text.contains(","))
    }

    @Test func negativeZeroKeepsItsSign() throws {
        var row = CSVRow()
        row.add(-0.0)
        let parsed = try #require(Double(row.text))
        #expect(parsed == 0)
        #expect(parsed.sign == .minus)
    }

    @Test func nonFiniteDoubles() {
        var row = CSVRow()
        row.add(Double.nan)
        row.add(Double.infinity)
        row.add(-Double.infinity)
        row.add(Double.signalingNaN)
        // NaN is written as an empty field, which pandas reads as missing.
        #expect(row.text == ",inf,-inf,")
    }

    @Test func integersAndMixedFields() {
        var row = CSVRow()
        row.add("bba")
        row.add(-3)
        row.add(UInt64.max)
        row.add(2.5)
        row.add(Double.nan)
        row.add("x,y")
        #expect(row.text == "bba,-3,18446744073709551615,2.5,,\"x,y\"")
        #expect(row.line == row.text + "\n")
    }

    @Test func emptyRowIsAnEmptyLine() {
        #expect(CSVRow().text == "")
        #expect(CSVRow().line == "\n")
    }

    @Test func aRowOfOneEmptyFieldIsEmptyText() {
        var row = CSVRow()
        row.add("")
        row.add("")
        #expect(row.text == ",")
    }

    @Test func headerLine() {
        #expect(CSVRow.line(["strategy", "trace", "a,b"]) == "strategy,trace,\"a,b\"\n")
        #expect(CSVRow.line([]) == "\n")
    }
}
