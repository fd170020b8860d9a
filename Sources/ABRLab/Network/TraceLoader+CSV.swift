extension TraceLoader {
    /// Where each quantity sits in a CSV trace's rows, and in which unit.
    private struct CSVColumns {
        enum Timing {
            /// `time_*`: each row's period ends at this time, measured from the trace's start.
            case end(index: Int, unit: TimeUnit)
            /// `duration_*`: each row's period lasts this long.
            case duration(index: Int, unit: TimeUnit)
        }

        var timing: Timing
        var bandwidth: (index: Int, unit: BandwidthUnit)
        var latency: (index: Int, unit: TimeUnit)?
        var count: Int
    }

    private static let csvColumnHint =
        "the header names time_s|time_ms or duration_s|duration_ms, bandwidth_bps|bandwidth_kbps|bandwidth_mbps "
        + "and optionally latency_s|latency_ms"

    /// Reads a CSV trace whose header names each column with its unit.
    ///
    /// Timing comes from one of two columns:
    /// - `time_s`/`time_ms`: the time each row's period *ends*, from the trace's start. A row's
    ///   bandwidth holds from the previous row's time (0 for the first row) until its own time, the
    ///   way a throughput log reports the interval just measured. A first row at time 0 therefore
    ///   lasts no time and is skipped, so a Pensieve trace that starts at 0 reads the same after
    ///   gaining a `time_s,bandwidth_mbps` header and commas. Times must increase.
    /// - `duration_s`/`duration_ms`: each row is a period of that length (> 0).
    ///
    /// Bandwidth is `bandwidth_bps`, `bandwidth_kbps` or `bandwidth_mbps`; `latency_s` or
    /// `latency_ms` is optional. Column names are case-insensitive; unknown columns or units are
    /// errors so a typo cannot silently drop data. Blank lines are skipped.
    static func parseCSV(_ text: String, file: String, name: String) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        var lines = TextLines(text).makeIterator()
        var headerLine: TextLines.Line?
        while let line = lines.next() {
            if !line.isBlank { headerLine = line; break }
        }
        guard let headerLine else { throw InputError(file: file, "the file is empty") }
        let columns = try csvColumns(headerLine, file: file)
        let reader = FieldReader(file: file)
        var endsSeconds: [Double] = []
        var bandwidthsBitsPerSecond: [Double] = []
        var latenciesSeconds: [Double] = []
        var durationSumInFileUnit = 0.0
        var isFirstRow = true
        var previousTime: Substring = "0"
        while let line = lines.next() {
            guard !line.isBlank else { continue }
            let fields = line.commaFields
            guard fields.count == columns.count else {
                throw InputError(file: file, line: line.number, "expected \(columns.count) fields, found \(fields.count)")
            }
            let bandwidth = try reader.nonNegative(
                fields[columns.bandwidth.index], line: line.number, name: "bandwidth_\(columns.bandwidth.unit.rawValue)"
            )
            let latency = try columns.latency.map { column throws(InputError) in
                column.unit.seconds(try reader.nonNegative(
                    fields[column.index], line: line.number, name: "latency_\(column.unit.rawValue)"
                ))
            }
            let endSeconds: Double
            switch columns.timing {
            case .end(let index, let unit):
                let field = fields[index]
                endSeconds = unit.seconds(try reader.nonNegative(field, line: line.number, name: "time_\(unit.rawValue)"))
                let marksStart = isFirstRow && endSeconds == 0
                isFirstRow = false
                if marksStart {
                    previousTime = field
                    continue
                }
                guard endSeconds > (endsSeconds.last ?? 0) else {
                    throw InputError(
                        file: file, line: line.number,
                        "time_\(unit.rawValue) \(field) does not come after the previous row's \(previousTime); times must increase"
                    )
                }
                previousTime = field
            case .duration(let index, let unit):
                durationSumInFileUnit += try reader.positive(fields[index], line: line.number, name: "duration_\(unit.rawValue)")
                endSeconds = unit.seconds(durationSumInFileUnit)
            }
            endsSeconds.append(endSeconds)
            bandwidthsBitsPerSecond.append(bandwidth * columns.bandwidth.unit.bitsPerSecond)
            if let latency { latenciesSeconds.append(latency) }
        }
        guard !endsSeconds.isEmpty else { throw InputError(file: file, "the trace has no periods: no rows, or only one at time 0") }
        let trace = try makeTrace(
            file: file, name: name, periodEndSeconds: endsSeconds, bandwidthBitsPerSecond: bandwidthsBitsPerSecond,
            latencySeconds: columns.latency == nil ? nil : latenciesSeconds
        )
        let timeUnit: TimeUnit = switch columns.timing {
        case .end(_, let unit), .duration(_, let unit): unit
        }
        return (trace, unitWarnings(for: trace, file: file, bandwidthUnit: columns.bandwidth.unit, timeUnit: timeUnit))
    }

    private static func csvColumns(_ header: TextLines.Line, file: String) throws(InputError) -> CSVColumns {
        let names = header.commaFields.map { $0.lowercased() }
        var timing: CSVColumns.Timing?
        var bandwidth: (index: Int, unit: BandwidthUnit)?
        var latency: (index: Int, unit: TimeUnit)?
        func fail(_ message: String) -> InputError { InputError(file: file, line: header.number, message) }
        for (index, name) in names.enumerated() {
            guard !name.isEmpty else { throw fail("column \(index + 1) of the header has no name") }
            let parts = name.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
            let quantity = String(parts[0])
            guard ["time", "duration", "bandwidth", "latency"].contains(quantity) else {
                throw fail("unknown column '\(name)'; \(csvColumnHint)")
            }
            let unitName = parts.count == 2 ? String(parts[1]) : ""
            let allowed = quantity == "bandwidth" ? BandwidthUnit.allCases.map(\.rawValue) : TimeUnit.allCases.map(\.rawValue)
            guard allowed.contains(unitName) else {
                let options = allowed.map { "\(quantity)_\($0)" }.joined(separator: ", ")
                throw fail(
                    unitName.isEmpty ? "column '\(name)' needs a unit: \(options)"
                        : "column '\(name)' has an unknown unit '\(unitName)'; use \(options)"
                )
            }
            switch quantity {
            case "bandwidth":
                guard bandwidth == nil else { throw fail("column '\(name)' repeats the bandwidth") }
                bandwidth = (index, BandwidthUnit(rawValue: unitName) ?? .bps)
            case "latency":
                guard latency == nil else { throw fail("column '\(name)' repeats the latency") }
                latency = (index, TimeUnit(rawValue: unitName) ?? .s)
            default:
                guard timing == nil else { throw fail("column '\(name)' repeats the timing; give one time_* or duration_* column") }
                let unit = TimeUnit(rawValue: unitName) ?? .s
                timing = quantity == "time" ? .end(index: index, unit: unit) : .duration(index: index, unit: unit)
            }
        }
        guard let timing else { throw fail("the header has no time_* or duration_* column; \(csvColumnHint)") }
        guard let bandwidth else { throw fail("the header has no bandwidth_* column; \(csvColumnHint)") }
        return CSVColumns(timing: timing, bandwidth: bandwidth, latency: latency, count: names.count)
    }
}
