import ABRLab

extension TraceLoader {
    /// Where each quantity sits in a CSV trace's rows, and in which unit.
    private struct CSVColumns {
        enum Timing {
            /// `time_*`: each row's period *starts* at this time.
            case start(index: Int, unit: TimeUnit)
            /// `end_*`: each row's period *ends* at this time, measured from the trace's start.
            case end(index: Int, unit: TimeUnit)
            /// `duration_*`: each row's period lasts this long.
            case duration(index: Int, unit: TimeUnit)

            var index: Int {
                switch self {
                case .start(let index, _), .end(let index, _), .duration(let index, _): index
                }
            }

            var unit: TimeUnit {
                switch self {
                case .start(_, let unit), .end(_, let unit), .duration(_, let unit): unit
                }
            }

            /// The column's name, `time_s`, for messages.
            var columnName: String {
                switch self {
                case .start(_, let unit): "time_\(unit.rawValue)"
                case .end(_, let unit): "end_\(unit.rawValue)"
                case .duration(_, let unit): "duration_\(unit.rawValue)"
                }
            }
        }

        var timing: Timing
        var bandwidth: (index: Int, unit: BandwidthUnit)
        var latency: (index: Int, unit: TimeUnit)?
        var count: Int
    }

    private static let csvColumnHint =
        "the header names time_s|time_ms (period starts), end_s|end_ms (period ends) or duration_s|duration_ms, "
        + "bandwidth_bps|bandwidth_kbps|bandwidth_mbps and optionally latency_s|latency_ms"

    /// Reads a CSV trace whose header names each column with its unit. Every row is one period
    /// of the trace: no row is skipped.
    ///
    /// Timing comes from one of three columns:
    /// - `time_s`/`time_ms`: the time each row's period *starts*, as in a log of samples. A row's
    ///   bandwidth holds until the next row's time; the last row lasts as long as the row before
    ///   it (the sampling interval), so a `time_*` trace needs two rows. The trace starts at the
    ///   first row's time, so absolute timestamps work as they are.
    /// - `end_s`/`end_ms`: the time each row's period *ends*, from the trace's start; the first
    ///   row's period starts at 0, so its time must be > 0. This is what `TraceWriter` writes
    ///   and how Pensieve's cooked traces count time.
    /// - `duration_s`/`duration_ms`: each row is a period of that length (> 0).
    ///
    /// Times must increase. Bandwidth is `bandwidth_bps`, `bandwidth_kbps` or `bandwidth_mbps`;
    /// `latency_s` or `latency_ms` is optional. Column names are case-insensitive; unknown
    /// columns or units are errors so a typo cannot silently drop data. Blank lines are skipped.
    static func parseCSV(_ text: String, file: String, name: String) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        var lines = TextLines(text).makeIterator()
        var headerLine: TextLines.Line?
        while let line = lines.next() {
            if !line.isBlank { headerLine = line; break }
        }
        guard let headerLine else { throw InputError(file: file, "the file is empty") }
        let columns = try csvColumns(headerLine, file: file)
        let timing = columns.timing
        let reader = FieldReader(file: file)
        var times: [Double] = []
        var bandwidthsBitsPerSecond: [Double] = []
        var latenciesSeconds: [Double] = []
        var durationSumInFileUnit = 0.0
        var previousTime: Substring?
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
            let field = fields[timing.index]
            switch timing {
            case .start, .end:
                let time = timing.unit.seconds(try reader.nonNegative(field, line: line.number, name: timing.columnName))
                if case .end = timing, times.isEmpty, time == 0 {
                    throw InputError(
                        file: file, line: line.number,
                        "\(timing.columnName) 0 ends a period that starts at 0 and lasts no time; "
                            + "if the times are period starts, name the column time_\(timing.unit.rawValue)"
                    )
                }
                if let previousTime, let last = times.last, time <= last {
                    throw InputError(
                        file: file, line: line.number,
                        "\(timing.columnName) \(field) does not come after the previous row's \(previousTime); times must increase"
                    )
                }
                previousTime = field
                times.append(time)
            case .duration:
                durationSumInFileUnit += try reader.positive(field, line: line.number, name: timing.columnName)
                times.append(timing.unit.seconds(durationSumInFileUnit))
            }
            bandwidthsBitsPerSecond.append(bandwidth * columns.bandwidth.unit.bitsPerSecond)
            if let latency { latenciesSeconds.append(latency) }
        }
        guard !times.isEmpty else { throw InputError(file: file, "the trace has no rows") }
        let endsSeconds: [Double]
        if case .start = timing {
            guard times.count >= 2 else {
                throw InputError(
                    file: file,
                    "one row under time_* gives no period length: the last row lasts as long as the row before it; "
                        + "add a row, or give duration_* or end_* instead"
                )
            }
            let origin = times[0]
            let last = times[times.count - 1]
            endsSeconds = (1..<times.count).map { times[$0] - origin } + [(last - origin) + (last - times[times.count - 2])]
        } else {
            endsSeconds = times
        }
        let trace = try makeTrace(
            file: file, name: name, periodEndSeconds: endsSeconds, bandwidthBitsPerSecond: bandwidthsBitsPerSecond,
            latencySeconds: columns.latency == nil ? nil : latenciesSeconds
        )
        return (trace, unitWarnings(for: trace, file: file, bandwidthUnit: columns.bandwidth.unit, timeUnit: timing.unit))
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
            guard ["time", "end", "duration", "bandwidth", "latency"].contains(quantity) else {
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
                guard timing == nil else {
                    throw fail("column '\(name)' repeats the timing; give one time_*, end_* or duration_* column")
                }
                let unit = TimeUnit(rawValue: unitName) ?? .s
                switch quantity {
                case "time": timing = .start(index: index, unit: unit)
                case "end": timing = .end(index: index, unit: unit)
                default: timing = .duration(index: index, unit: unit)
                }
            }
        }
        guard let timing else { throw fail("the header has no time_*, end_* or duration_* column; \(csvColumnHint)") }
        guard let bandwidth else { throw fail("the header has no bandwidth_* column; \(csvColumnHint)") }
        return CSVColumns(timing: timing, bandwidth: bandwidth, latency: latency, count: names.count)
    }
}
