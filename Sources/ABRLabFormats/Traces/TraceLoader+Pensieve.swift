import ABRLab

extension TraceLoader {
    /// Reads Pensieve's "cooked" text: `time_s bandwidth_Mbps` per line, tab or space separated.
    ///
    /// As in Pensieve's simulator, the bandwidth on line i holds from time[i-1] to time[i], line
    /// 0's bandwidth is never used, and the trace loops back to line 1 at time 0. Period k ends at
    /// `time[k+1] - time[0]` and carries `Mbps[k+1] × 1_000_000` bit/s — exactly that arithmetic,
    /// so the emulator's `bits / 8` equals Pensieve's `Mbps * 1e6 / 8` bit for bit.
    static func parsePensieve(_ text: String, file: String, name: String) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        let reader = FieldReader(file: file)
        var timesSeconds: [Double] = []
        var bandwidthsMbps: [Double] = []
        for line in TextLines(text) where !line.isBlank {
            let fields = line.whitespaceFields
            guard fields.count == 2 else {
                throw InputError(
                    file: file, line: line.number, "expected 2 fields (time_s and bandwidth_Mbps), found \(fields.count)"
                )
            }
            let timeSeconds = try reader.number(fields[0], line: line.number, name: "time")
            let bandwidthMbps = try reader.nonNegative(fields[1], line: line.number, name: "bandwidth")
            if let previous = timesSeconds.last, !(timeSeconds > previous) {
                throw InputError(
                    file: file, line: line.number,
                    "time \(fields[0]) s does not come after the previous line's \(NumberText.plain(previous)) s"
                )
            }
            timesSeconds.append(timeSeconds)
            bandwidthsMbps.append(bandwidthMbps)
        }
        guard timesSeconds.count >= 2 else {
            throw InputError(
                file: file,
                timesSeconds.isEmpty ? "the trace is empty"
                    : "the trace has one line; Pensieve traces need two or more, as the first only marks the start"
            )
        }
        let startSeconds = timesSeconds[0]
        let trace = try makeTrace(
            file: file, name: name,
            periodEndSeconds: timesSeconds.dropFirst().map { $0 - startSeconds },
            bandwidthBitsPerSecond: bandwidthsMbps.dropFirst().map { $0 * 1_000_000 }
        )
        return (trace, unitWarnings(for: trace, file: file, bandwidthUnit: .mbps, timeUnit: .s))
    }
}
