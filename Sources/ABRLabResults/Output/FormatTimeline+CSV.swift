import ABRLab
import ABRLabPlayerKit

extension FormatTimeline {
    /// Header of a format timeline; segments and levels are 1-based, as in every output.
    public static let csvHeader = CSVRow.line(["segment", "level", "format", "media_s", "arrival_s"])

    /// The changes as CSV rows under `csvHeader`, header included.
    public static func csvText(_ changes: [Change]) -> String {
        var text = csvHeader
        for change in changes { text += change.csvLine }
        return text
    }
}

extension FormatTimeline.Change {
    /// The change as one CSV row with its line ending (segment and level 1-based).
    public var csvLine: String {
        var row = CSVRow()
        row.add(segmentIndex + 1)
        row.add(level + 1)
        row.add(format)
        row.add(mediaSeconds)
        row.add(arrivalSeconds)
        return row.line
    }
}
