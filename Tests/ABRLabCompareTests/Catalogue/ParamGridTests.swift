import ABRLab
import ABRLabCompare
import Testing
import TestSupport

/// The `--param-grid` parser alone: what spreadsheets save (a byte order mark, CRLF, quoted
/// cells) reads like a plain file, lines keep their numbers, and the settings are bounded.
@Suite(.tags(.compare), .selectedByTags) struct ParamGridTests {
    static let plain = "# coupled settings\nbola.gp,bola.capacity_s,bba.cushion_s\n\n3,20,\n8,30,\n,,10\n"

    @Test(arguments: [
        "\u{FEFF}" + plain,
        plain.replacingOccurrences(of: "\n", with: "\r\n"),
        "\u{FEFF}" + plain.replacingOccurrences(of: "\n", with: "\r\n"),
        plain.replacingOccurrences(of: "3,20,", with: "\"3\",\"20\" ,").replacingOccurrences(of: "\n", with: "\r\n"),
    ])
    func whatSpreadsheetsSaveReadsLikeThePlainFile(text: String) throws {
        let expected = try ParamGrid(Self.plain, file: "grid.csv")
        let grid = try ParamGrid(text, file: "grid.csv")
        #expect(grid.rows == expected.rows)
        #expect(grid.rows["bola"]?.map(\.line) == [4, 5])
        #expect(grid.keys(for: "bola") == ["capacity_s", "gp"])
        #expect(grid.sweptKeys(for: "bola") == ["capacity_s", "gp"])
        #expect(grid.sweptKeys(for: "bba").isEmpty)
    }

    @Test func quotedCellsHoldCommasQuotesAndSpaces() throws {
        let grid = try ParamGrid("s.a,s.b\r\n\"x,b=y\",\"say \"\"hi\"\"\"\r\n", file: "grid.csv")
        #expect(grid.rows["s"] == [ParamGrid.Row(line: 2, values: ["a": "x,b=y", "b": "say \"hi\""])])
    }

    @Test(arguments: [
        ("\u{FEFF}bola.gp\r\n3\r\n5,6\r\n", "grid.csv:3: has 2 fields, the header 1"),
        ("bola.gp\r\n3\r\n\"5\r\n", "grid.csv:3: a quoted field is not closed"),
        ("bola.gp\r\n3\r\n\r\n3\r\n", "grid.csv:4: repeats the bola setting of line 2"),
        ("\u{FEFF}bola\r\n3\r\n", "grid.csv:1: column 'bola' is not of the form id.key"),
    ])
    func errorsKeepTheLineNumbersOfCRLFFiles(text: String, message: String) {
        do {
            _ = try ParamGrid(text, file: "grid.csv")
            Issue.record("'\(text)' was read")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func moreSettingsThanARunHoldsStopAtTheLineThatPassesThem() {
        // Two settings per line: bola's and bba's.
        let text = "bola.gp,bba.x\n1,1\n2,2\n3,3\n"
        #expect((try? ParamGrid(text, file: "grid.csv", maximumSettings: 6))?.rows["bba"]?.count == 3)
        do {
            _ = try ParamGrid(text, file: "grid.csv", maximumSettings: 5)
            Issue.record("a grid past the limit was read")
        } catch {
            #expect(error.description == "grid.csv:4: passes 5 settings, the most one run holds; split the grid into several runs")
        }
    }
}
