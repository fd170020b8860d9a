import ABRLab
import Foundation

/// Reads `groups.csv` back into an ``ExperimentReport``, so the per-strategy group summary of a
/// resumed run or of merged shards comes from the numbers an uninterrupted run keeps in memory.
public enum GroupsCSVReader {
    /// Adds every row of the first `length` bytes of `url` to `report`; a header other than
    /// ``GroupCSV/header`` or a malformed row is an error naming the file and line.
    public static func read(_ url: URL, length: UInt64? = nil, into report: inout ExperimentReport) throws(InputError) {
        var reader = try CSVRecordReader(url: url, length: length)
        defer { reader.close() }
        guard let header = try reader.next(), header == GroupCSV.header else {
            throw InputError(file: url.path, line: 1, "not a groups.csv header of this abrlab version")
        }
        let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        while true {
            let line = reader.line
            guard let fields = try reader.next() else { break }
            guard fields.count == header.count else {
                throw InputError(file: url.path, line: line, "has \(fields.count) fields, the header \(header.count)")
            }
            func number(_ name: String) throws(InputError) -> Double {
                let text = column[name].map { fields[$0] } ?? ""
                // CSVRow writes NaN as an empty field.
                if text.isEmpty { return .nan }
                guard let value = Double(text) else { throw InputError(file: url.path, line: line, "\(name) is not a number: '\(text)'") }
                return value
            }
            let metrics = GroupMetrics(
                jain: try number("jain"), unfairness: try number("unfairness"), inefficiency: try number("inefficiency"),
                instability: try number("instability"), qoeFairness: try number("qoe_fairness_f"), utilisation: try number("utilisation"),
                overlapSeconds: try number("overlap_s")
            )
            report.addGroup(label: column["strategy"].map { fields[$0] } ?? "", metrics: metrics)
        }
    }
}
