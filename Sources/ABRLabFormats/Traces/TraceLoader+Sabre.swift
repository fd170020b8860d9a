import ABRLab

extension TraceLoader {
    /// Reads Sabre's JSON trace: a list of `{"duration_ms", "bandwidth_kbps", "latency_ms"}` periods.
    ///
    /// Bandwidth is `kbps × 1000` bit/s. Period ends are the running sum of `duration_ms` divided
    /// by 1000 once, so whole-millisecond traces keep exact end times however long they run.
    /// `latency_ms` may be left out, but then from every period: a trace either records latency
    /// or it does not. Errors name the element's 0-based index and its line.
    static func parseSabre(_ text: String, file: String, name: String) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        let bytes = TextLines.bytesDroppingByteOrderMark(text)
        let periods: [SabrePeriodScanner.Period]
        if let scanned = SabrePeriodScanner.periods(bytes) { periods = scanned } else { periods = try sabrePeriods(bytes: bytes, file: file) }
        let recordsLatency = periods[0].latencyMilliseconds != nil
        var endsSeconds: [Double] = []
        var bandwidthsBitsPerSecond: [Double] = []
        var latenciesSeconds: [Double] = []
        var durationsMilliseconds: [Double] = []
        var latenciesMilliseconds: [Double] = []
        endsSeconds.reserveCapacity(periods.count)
        bandwidthsBitsPerSecond.reserveCapacity(periods.count)
        durationsMilliseconds.reserveCapacity(periods.count)
        var totalMilliseconds = 0.0
        for period in periods {
            totalMilliseconds += period.durationMilliseconds
            durationsMilliseconds.append(period.durationMilliseconds)
            if let latency = period.latencyMilliseconds { latenciesMilliseconds.append(latency) }
            endsSeconds.append(TimeUnit.ms.seconds(totalMilliseconds))
            bandwidthsBitsPerSecond.append(period.bandwidthKbps * BandwidthUnit.kbps.bitsPerSecond)
            if let latency = period.latencyMilliseconds { latenciesSeconds.append(TimeUnit.ms.seconds(latency)) }
        }
        var trace = try makeTrace(
            file: file, name: name, periodEndSeconds: endsSeconds, bandwidthBitsPerSecond: bandwidthsBitsPerSecond,
            latencySeconds: recordsLatency ? latenciesSeconds : nil
        )
        trace.fileMilliseconds = MillisecondPeriods(
            durations: durationsMilliseconds, latencies: recordsLatency ? latenciesMilliseconds : nil
        )
        return (trace, unitWarnings(for: trace, file: file, bandwidthUnit: .kbps, timeUnit: .ms))
    }

    /// The periods of a trace the scanner leaves to the general reader: the same periods, or the
    /// mistake named with its element and line. Never empty.
    static func sabrePeriods(bytes: [UInt8], file: String) throws(InputError) -> [SabrePeriodScanner.Period] {
        let root = try LocatedJSON.parse(bytes: bytes, file: file)
        let elements = try root.elements(file: file, what: "a Sabre trace")
        guard let first = elements.first else { throw InputError(file: file, line: root.line, "the trace is empty") }
        var periods: [SabrePeriodScanner.Period] = []
        periods.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let period = try sabrePeriod(element, index: index, file: file)
            if let recordsLatency = periods.first.map({ $0.latencyMilliseconds != nil }), (period.latencyMilliseconds != nil) != recordsLatency {
                throw InputError(
                    file: file, line: element.line,
                    recordsLatency ? "element [\(index)] has no latency_ms, though element [0] (line \(first.line)) has one"
                        : "element [\(index)] has latency_ms, though element [0] (line \(first.line)) has none"
                )
            }
            periods.append(period)
        }
        return periods
    }

    private static func sabrePeriod(
        _ element: LocatedJSON, index: Int, file: String
    ) throws(InputError) -> SabrePeriodScanner.Period {
        func what() -> String { "element [\(index)]" }
        var durationMilliseconds: Double?
        var bandwidthKbps: Double?
        var latencyMilliseconds: Double?
        for (key, value) in try element.members(file: file, what: what()) {
            switch key {
            case "duration_ms": durationMilliseconds = try value.positive(file: file, what: "\(what()) duration_ms")
            case "bandwidth_kbps": bandwidthKbps = try value.nonNegative(file: file, what: "\(what()) bandwidth_kbps")
            case "latency_ms": latencyMilliseconds = try value.nonNegative(file: file, what: "\(what()) latency_ms")
            default:
                throw InputError(
                    file: file, line: value.line,
                    "\(what()) has an unknown key \"\(key)\"; Sabre periods have duration_ms, bandwidth_kbps and latency_ms"
                )
            }
        }
        guard let durationMilliseconds else { throw InputError(file: file, line: element.line, "\(what()) has no duration_ms") }
        guard let bandwidthKbps else { throw InputError(file: file, line: element.line, "\(what()) has no bandwidth_kbps") }
        return SabrePeriodScanner.Period(durationMilliseconds: durationMilliseconds, bandwidthKbps: bandwidthKbps, latencyMilliseconds: latencyMilliseconds)
    }
}
