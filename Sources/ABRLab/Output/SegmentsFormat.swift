/// How `segments.csv`, the largest output by far, is written.
public enum SegmentsFormat: String, CaseIterable, Sendable {
    /// Plain CSV, `segments.csv`.
    case csv
    /// gzip-compressed CSV, `segments.csv.gz`: one gzip member per trace, which pandas and
    /// `gzip -d` read as one file.
    case csvGzip = "csv.gz"
    /// No per-segment rows at all.
    case none

    /// The file's name, or `nil` for ``none``.
    public var fileName: String? {
        switch self {
        case .csv: "segments.csv"
        case .csvGzip: "segments.csv.gz"
        case .none: nil
        }
    }
}
