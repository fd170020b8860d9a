extension FormatTimeline {
    /// Header of a `formats.csv` file.
    public static let csvHeader = CSVRow.line(["segment_index", "level", "format", "media_s", "arrival_s"])

    /// The changes as CSV rows under `csvHeader`, header included.
    public static func csvText(_ changes: [Change]) -> String {
        var text = csvHeader
        for change in changes { text += change.csvLine }
        return text
    }
}

extension FormatTimeline.Change {
    /// The change as one CSV row with its line ending.
    public var csvLine: String {
        var row = CSVRow()
        row.add(segmentIndex)
        row.add(level)
        row.add(format)
        row.add(mediaSeconds)
        row.add(arrivalSeconds)
        return row.line
    }
}
