import ABRLab
import Foundation

/// Turns raw measurement logs of public datasets into traces.
///
/// - `hsdpaLog`: the Norway HSDPA logs (Riiser et al., MMSys 2013, doi:10.1145/2483977.2483991)
///   and the Belgium 4G/LTE logs (van der Hooft et al., IEEE Commun. Lett. 2016,
///   doi:10.1109/LCOMM.2016.2601087) share one layout, six whitespace-separated columns per
///   sample: Unix time (s), time since the start (ms), latitude, longitude, bytes received since
///   the previous sample, milliseconds since the previous sample. Each sample becomes a period of
///   that many milliseconds at bytes × 8 / seconds.
/// - `irish5G`: the Irish 5G dataset (Raca et al., MMSys 2020, doi:10.1145/3339825.3394938):
///   CSV with a header; `Timestamp` as `YYYY.MM.DD_HH.MM.SS` and `DL_bitrate` in kbps, one row
///   a second (several rows in one second are averaged; `-` marks a missing value, read as 0).
///   The path is cellular.
public enum TraceImporter {
    public enum Source: String, CaseIterable, Sendable {
        case norwayHSDPA = "norway-hsdpa"
        case belgium4G = "belgium-4g"
        case irish5G = "irish-5g"
    }

    public static func importTrace(_ url: URL, from source: Source) throws(InputError) -> NetworkTrace {
        let file = TextFile.displayName(url)
        let text = try TextFile.read(url)
        let name = url.deletingPathExtension().lastPathComponent
        switch source {
        case .norwayHSDPA, .belgium4G: return try hsdpaLog(text, file: file, name: name)
        case .irish5G: return try irish5G(text, file: file, name: name)
        }
    }

    public static func hsdpaLog(_ text: String, file: String, name: String) throws(InputError) -> NetworkTrace {
        var periods: [TracePeriod] = []
        for line in TextLines(text) {
            let fields = line.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            guard fields.count >= 6 else {
                throw InputError(file: file, line: line.number, "expected 6 columns (unix s, ms, lat, lon, bytes, ms), found \(fields.count)")
            }
            guard let bytes = Double(fields[4]), bytes >= 0, let milliseconds = Double(fields[5]), milliseconds.isFinite else {
                throw InputError(file: file, line: line.number, "bytes and milliseconds must be numbers ≥ 0")
            }
            // Samples with no elapsed time carry no rate; the logs have a few.
            guard milliseconds > 0 else { continue }
            periods.append(TracePeriod(durationSeconds: milliseconds / 1000, bandwidthBitsPerSecond: bytes * 8 / (milliseconds / 1000)))
        }
        guard !periods.isEmpty else { throw InputError(file: file, "the log has no samples") }
        return try cellularTrace(name: name, periods: periods, file: file)
    }

    public static func irish5G(_ text: String, file: String, name: String) throws(InputError) -> NetworkTrace {
        var lines = TextLines(text).makeIterator()
        guard let header = lines.next() else { throw InputError(file: file, "the file is empty") }
        let columns = header.text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let timeColumn = columns.firstIndex(of: "Timestamp"), let rateColumn = columns.firstIndex(of: "DL_bitrate") else {
            throw InputError(file: file, line: header.number, "expected the columns Timestamp and DL_bitrate")
        }
        var seconds: [Int] = []
        var sums: [Double] = []
        var counts: [Int] = []
        while let line = lines.next() {
            let fields = line.text.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count == 1, fields[0].trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard fields.count > max(timeColumn, rateColumn) else {
                throw InputError(file: file, line: line.number, "expected \(columns.count) columns, found \(fields.count)")
            }
            guard let time = timestampSeconds(fields[timeColumn]) else {
                throw InputError(file: file, line: line.number, "cannot read the timestamp '\(fields[timeColumn])'; expected YYYY.MM.DD_HH.MM.SS")
            }
            let rateText = fields[rateColumn].trimmingCharacters(in: .whitespaces)
            let kbps: Double
            if rateText == "-" || rateText.isEmpty {
                kbps = 0
            } else if let value = Double(rateText), value >= 0, value.isFinite {
                kbps = value
            } else {
                throw InputError(file: file, line: line.number, "DL_bitrate '\(rateText)' is not a number of kbps ≥ 0")
            }
            if let last = seconds.last, time == last {
                sums[sums.count - 1] += kbps
                counts[counts.count - 1] += 1
            } else {
                if let last = seconds.last, time < last {
                    throw InputError(file: file, line: line.number, "the timestamp goes back in time")
                }
                seconds.append(time)
                sums.append(kbps)
                counts.append(1)
            }
        }
        guard !seconds.isEmpty else { throw InputError(file: file, "the file has no samples") }
        // Each row holds until the next row's second; the last holds for one second.
        let periods = seconds.indices.map { index in
            TracePeriod(
                durationSeconds: Double(index + 1 < seconds.count ? seconds[index + 1] - seconds[index] : 1),
                bandwidthBitsPerSecond: sums[index] / Double(counts[index]) * 1000
            )
        }
        return try cellularTrace(name: name, periods: periods, file: file)
    }

    /// The trace of a cellular log, with `NetworkTrace`'s own checks reported under the log's name.
    private static func cellularTrace(name: String, periods: [TracePeriod], file: String) throws(InputError) -> NetworkTrace {
        do {
            return try NetworkTrace(name: name, periods: periods, path: NetworkPath(isExpensive: false, interfaceTypes: [.cellular]))
        } catch {
            throw InputError(file: file, error.message)
        }
    }

    /// Seconds since 2000-01-01 of `YYYY.MM.DD_HH.MM.SS` (only differences matter).
    static func timestampSeconds(_ text: Substring) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "." || $0 == "_" }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        let (year, month, day, hour, minute, second) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
        // A four-digit year also keeps the day arithmetic below from overflowing.
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        // Days from civil date (proleptic Gregorian), so no calendar object is needed.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 730_425
        return ((days * 24 + hour) * 60 + minute) * 60 + second
    }
}
