/// A network trace file format. The raw value is the name a command line takes (`--format sabre`).
public enum TraceFormat: String, CaseIterable, Sendable, Codable {
    /// Pensieve's "cooked" text: `time_s bandwidth_Mbps` on each line, tab or space separated.
    case pensieve
    /// Sabre's JSON list of `{"duration_ms", "bandwidth_kbps", "latency_ms"}` periods.
    case sabre
    /// Mahimahi's delivery schedule: one millisecond timestamp per 1500-byte delivery opportunity.
    case mahimahi
    /// Comma-separated values under a header whose column names carry units, e.g. `time_s,bandwidth_mbps`
    /// (`time_*` are period starts, `end_*` period ends; see `TraceLoader.parseCSV`).
    case csv

    /// The extension files in this format conventionally carry; Pensieve and Mahimahi files have none.
    public var fileExtension: String? {
        switch self {
        case .pensieve, .mahimahi: nil
        case .sabre: "json"
        case .csv: "csv"
        }
    }

    /// Recognizes a format from the first non-blank line of `text`, falling back on the file
    /// extension only when the content is ambiguous (or not recognizable), so a misnamed file
    /// still loads as what it is.
    ///
    /// - `[` or `{` first: Sabre JSON.
    /// - a comma: CSV (whose first line is its header).
    /// - one whole number: Mahimahi.
    /// - two numbers separated by blanks: Pensieve.
    public static func detect(text: String, fileExtension: String? = nil) -> TraceFormat? {
        if let format = detect(firstLine: TextLines(text).firstContentLine?.text) { return format }
        switch fileExtension?.lowercased() {
        case "json": return .sabre
        case "csv": return .csv
        default: return nil
        }
    }

    private static func detect(firstLine: Substring?) -> TraceFormat? {
        guard let line = firstLine.map(TextLines.trimmed), let first = line.utf8.first else { return nil }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return .sabre }
        if line.utf8.contains(UInt8(ascii: ",")) { return .csv }
        let fields = TextLines.Line(number: 1, text: line).whitespaceFields
        guard fields.allSatisfy({ Double($0) != nil }) else { return nil }
        switch fields.count {
        case 1 where Int(fields[0]) != nil: return .mahimahi
        case 2: return .pensieve
        default: return nil
        }
    }
}
