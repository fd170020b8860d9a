import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct CSVRecordReaderTests {
    @Test func readsWhatCSVRowWritesIncludingQuotedLineBreaks() throws {
        let rows = [["a", "b,c", "say \"hi\""], ["multi\nline", "", "x"], ["1.5", "-inf", "end"]]
        let text = rows.map { CSVRow.line($0) }.joined()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(text.utf8).write(to: url)
        var reader = try CSVRecordReader(url: url)
        var read: [[String]] = []
        var lines: [Int] = []
        while true {
            lines.append(reader.line)
            guard let record = try reader.next() else { break }
            read.append(record)
        }
        #expect(read == rows)
        #expect(lines == [1, 2, 4, 5])
        var prefix = try CSVRecordReader(url: url, length: UInt64(CSVRow.line(rows[0]).utf8.count))
        #expect(try prefix.next() == rows[0])
        #expect(try prefix.next() == nil)
    }

    @Test func anUnfinishedQuoteIsAnError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("a,\"open\nmore".utf8).write(to: url)
        var reader = try CSVRecordReader(url: url)
        #expect(throws: InputError.self) { _ = try reader.next() }
    }
}
