extension TraceLoader {
    /// Reads Sabre's JSON trace: a list of `{"duration_ms", "bandwidth_kbps", "latency_ms"}` periods.
    ///
    /// Bandwidth is `kbps × 1000` bit/s. Period ends are the running sum of `duration_ms` divided
    /// by 1000 once, so whole-millisecond traces keep exact end times however long they run.
    /// `latency_ms` may be left out, but then from every period: a trace either records latency
    /// or it does not. Errors name the element's 0-based index and its line.
    static func parseSabre(_ text: String, file: String, name: String) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        let root = try LocatedJSON.parse(text, file: file)
        let elements = try root.elements(file: file, what: "a Sabre trace")
        guard let first = elements.first else { throw InputError(file: file, line: root.line, "the trace is empty") }
        var endsSeconds: [Double] = []
        var bandwidthsBitsPerSecond: [Double] = []
        var latenciesSeconds: [Double] = []
        var durationsMilliseconds: [Double] = []
        var latenciesMilliseconds: [Double] = []
        endsSeconds.reserveCapacity(elements.count)
        bandwidthsBitsPerSecond.reserveCapacity(elements.count)
        var totalMilliseconds = 0.0
        var recordsLatency = false
        for (index, element) in elements.enumerated() {
            let period = try sabrePeriod(element, index: index, file: file)
            if index == 0 {
                recordsLatency = period.latencyMilliseconds != nil
            } else if (period.latencyMilliseconds != nil) != recordsLatency {
                throw InputError(
                    file: file, line: element.line,
                    recordsLatency ? "element [\(index)] has no latency_ms, though element [0] (line \(first.line)) has one"
                        : "element [\(index)] has latency_ms, though element [0] (line \(first.line)) has none"
                )
            }
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

    private static func sabrePeriod(
        _ element: LocatedJSON, index: Int, file: String
    ) throws(InputError) -> (durationMilliseconds: Double, bandwidthKbps: Double, latencyMilliseconds: Double?) {
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
        return (durationMilliseconds, bandwidthKbps, latencyMilliseconds)
    }
}
