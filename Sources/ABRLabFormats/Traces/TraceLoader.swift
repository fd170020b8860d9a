import ABRLab
import Foundation

/// How `TraceLoader` reads a trace.
public struct TraceLoadOptions: Equatable, Sendable {
    /// Mahimahi opportunities are counted in 1000 ms bins by default: the public cellular traces
    /// (Pensieve's and Sabre's 3G/4G logs) sample about once a second, segment downloads last
    /// seconds, and a 1 s bin resolves bandwidth in 12 kbit/s steps (one 1500-byte packet),
    /// where a 100 ms bin would quantize to 120 kbit/s steps and mostly add noise.
    public static let defaultMahimahiBinMilliseconds = Setting.mahimahiBinMs.defaultValue().integer ?? 0

    /// Width of the bins Mahimahi delivery opportunities are counted in, milliseconds; > 0.
    public var mahimahiBinMilliseconds: Int
    /// The trace's name; nil takes the file name without a `.json` or `.csv` extension.
    public var name: String?

    public init(mahimahiBinMilliseconds: Int = TraceLoadOptions.defaultMahimahiBinMilliseconds, name: String? = nil) {
        self.mahimahiBinMilliseconds = mahimahiBinMilliseconds
        self.name = name
    }
}

/// A trace as read from a file, with the format it was read as and anything that looked wrong.
public struct LoadedTrace: Equatable, Sendable {
    public var trace: NetworkTrace
    public var format: TraceFormat
    /// Values that look like the wrong unit and similar doubts that did not stop loading.
    public var warnings: [InputWarning]

    public init(trace: NetworkTrace, format: TraceFormat, warnings: [InputWarning]) {
        self.trace = trace
        self.format = format
        self.warnings = warnings
    }
}

/// Reads network traces in every `TraceFormat`, recognizing the format from the content.
///
/// Every problem is an `InputError` naming the file and, where one applies, the line.
public enum TraceLoader {
    /// Loads one trace file; `format` overrides detection.
    public static func load(
        _ url: URL, format: TraceFormat? = nil, options: TraceLoadOptions = .init()
    ) throws(InputError) -> LoadedTrace {
        let file = TextFile.displayName(url)
        guard !TextFile.isDirectory(url) else { throw InputError(file: file, "is a folder, not a trace file") }
        return try parse(TextFile.read(url), file: file, format: format, options: options)
    }

    /// Loads every non-hidden file of a folder, in name order, so a trace set loads in one call.
    public static func loadDirectory(
        _ directory: URL, format: TraceFormat? = nil, options: TraceLoadOptions = .init()
    ) throws(InputError) -> [LoadedTrace] {
        guard TextFile.isDirectory(directory) else {
            throw InputError(file: TextFile.displayName(directory), "is not a folder")
        }
        var traces: [LoadedTrace] = []
        for url in try TextFile.contents(of: directory) where !TextFile.isDirectory(url) {
            traces.append(try load(url, format: format, options: options))
        }
        return traces
    }

    /// Parses the text of a trace file; `file` names it in errors and gives the trace its name.
    public static func parse(
        _ text: String, file: String, format: TraceFormat? = nil, options: TraceLoadOptions = .init()
    ) throws(InputError) -> LoadedTrace {
        let name = options.name ?? traceName(forFile: file)
        guard let format = format ?? TraceFormat.detect(text: text, fileExtension: fileExtension(of: file)) else {
            guard let line = TextLines(text).firstContentLine else { throw InputError(file: file, "the file is empty") }
            throw InputError(
                file: file, line: line.number,
                "cannot tell the trace format from '\(TextLines.trimmed(line.text).prefix(40))'; "
                    + "name it: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let parsed: (trace: NetworkTrace, warnings: [InputWarning])
        switch format {
        case .pensieve: parsed = try parsePensieve(text, file: file, name: name)
        case .sabre: parsed = try parseSabre(text, file: file, name: name)
        case .mahimahi:
            parsed = try parseMahimahi(text, file: file, name: name, binMilliseconds: options.mahimahiBinMilliseconds)
        case .csv: parsed = try parseCSV(text, file: file, name: name)
        }
        return LoadedTrace(trace: parsed.trace, format: format, warnings: parsed.warnings)
    }

    /// The last path component without a `.json` or `.csv` extension: `norway_bus_1`, `report_foo`.
    public static func traceName(forFile file: String) -> String {
        // The part after the last slash, without splitting the whole path (names of thousands
        // of files are taken at every start of a run).
        var base = file.lastIndex(of: "/").map { String(file[file.index(after: $0)...]) } ?? file
        if base.isEmpty { base = file.split(separator: "/").last.map(String.init) ?? file }
        // Bytes, compared ASCII case-insensitively: the suffixes are ASCII, and a lowercased copy
        // and a character count per name added up to a millisecond per thousand traces.
        let bytes = base.utf8
        for suffix in [".json", ".csv"] {
            let tail = suffix.utf8
            guard bytes.count > tail.count else { continue }
            let start = bytes.index(bytes.endIndex, offsetBy: -tail.count)
            if zip(bytes[start...], tail).allSatisfy({ (0x41...0x5a).contains($0) ? $0 + 0x20 == $1 : $0 == $1 }) {
                return String(base[..<start])
            }
        }
        return base
    }

    private static func fileExtension(of file: String) -> String? {
        guard let base = file.split(separator: "/").last, let dot = base.lastIndex(of: "."), dot != base.startIndex else {
            return nil
        }
        return String(base[base.index(after: dot)...])
    }

    /// Builds the trace, reporting `NetworkTrace`'s own checks under the file's name.
    static func makeTrace(
        file: String, name: String, periodEndSeconds: [Double], bandwidthBitsPerSecond: [Double],
        latencySeconds: [Double]? = nil
    ) throws(InputError) -> NetworkTrace {
        do {
            return try NetworkTrace(
                name: name, periodEndSeconds: periodEndSeconds, bandwidthBitsPerSecond: bandwidthBitsPerSecond,
                latencySeconds: latencySeconds
            )
        } catch {
            throw InputError(file: file, error.message)
        }
    }
}
