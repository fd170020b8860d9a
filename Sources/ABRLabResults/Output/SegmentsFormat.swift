import ABRLab

/// How `segments.csv`, the largest output by far, is written.
public enum SegmentsFormat: String, CaseIterable, Sendable {
    /// Plain CSV, `segments.csv`.
    case csv
    /// gzip-compressed CSV, `segments.csv.gz`: one gzip member per block of rows (see
    /// ``FileCompression``), which pandas and `gzip -d` read as one file.
    case csvGzip = "csv.gz"
    /// Zstandard-compressed CSV, `segments.csv.zst`: one frame per block of rows, which pandas
    /// (with the `zstandard` package) and `zstd -d` read as one file.
    case csvZstd = "csv.zst"
    /// No per-segment rows at all.
    case none

    /// The file's name, or `nil` for ``none``.
    public var fileName: String? {
        switch self {
        case .csv: "segments.csv"
        case .csvGzip: "segments.csv.gz"
        case .csvZstd: "segments.csv.zst"
        case .none: nil
        }
    }

    /// The formats as options spell them, for messages: "csv, csv.gz, csv.zst or none".
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
