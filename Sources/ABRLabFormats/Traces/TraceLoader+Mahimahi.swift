import ABRLab

extension TraceLoader {
    /// Bytes in one Mahimahi delivery opportunity (one MTU-sized packet).
    static let mahimahiPacketBytes = 1500
    /// Bins a Mahimahi trace may span: over 23 days at the default width. The limit keeps a
    /// stray huge timestamp in a file of a few bytes from allocating hundreds of megabytes
    /// (three arrays of one number per bin) before it can be reported.
    static let mahimahiMaximumBinCount = 2_000_000

    /// Reads a Mahimahi trace: one whole-millisecond timestamp per line, each a 1500-byte
    /// delivery opportunity; a repeated timestamp is several packets in that millisecond.
    ///
    /// Timestamps must not decrease. As in Mahimahi, the trace loops with a period equal to its
    /// last timestamp, and an opportunity at t ms belongs to the millisecond (t-1, t]. Bin k covers
    /// (k·w, (k+1)·w] ms (timestamp 0 joins the first bin); the last bin ends at the last
    /// timestamp and may be shorter. A bin's bandwidth is `packets × 1500 × 8 / binSeconds`.
    static func parseMahimahi(
        _ text: String, file: String, name: String, binMilliseconds: Int
    ) throws(InputError) -> (NetworkTrace, [InputWarning]) {
        guard binMilliseconds > 0 else {
            throw InputError(file: file, "the Mahimahi bin width is \(binMilliseconds) ms; it must be > 0")
        }
        let reader = FieldReader(file: file)
        var packetsPerBin: [Int] = []
        var lastMilliseconds: Int?
        for line in TextLines(text) where !line.isBlank {
            let fields = line.whitespaceFields
            guard fields.count == 1 else {
                throw InputError(file: file, line: line.number, "expected 1 field (a timestamp in ms), found \(fields.count)")
            }
            let milliseconds = try reader.count(fields[0], line: line.number, name: "timestamp")
            if let last = lastMilliseconds, milliseconds < last {
                throw InputError(
                    file: file, line: line.number, "timestamp \(milliseconds) ms comes before the previous line's \(last) ms"
                )
            }
            lastMilliseconds = milliseconds
            let bin = milliseconds == 0 ? 0 : (milliseconds - 1) / binMilliseconds
            guard bin < mahimahiMaximumBinCount else {
                throw InputError(
                    file: file, line: line.number,
                    "timestamp \(milliseconds) ms needs over \(mahimahiMaximumBinCount) bins of \(binMilliseconds) ms; use wider bins"
                )
            }
            if bin >= packetsPerBin.count { packetsPerBin.append(contentsOf: repeatElement(0, count: bin + 1 - packetsPerBin.count)) }
            packetsPerBin[bin] += 1
        }
        guard let lastMilliseconds else { throw InputError(file: file, "the trace is empty") }
        guard lastMilliseconds > 0 else {
            throw InputError(file: file, "the trace lasts 0 ms; its last timestamp sets the loop length and must be > 0")
        }
        var endsSeconds: [Double] = []
        var bandwidthsBitsPerSecond: [Double] = []
        endsSeconds.reserveCapacity(packetsPerBin.count)
        bandwidthsBitsPerSecond.reserveCapacity(packetsPerBin.count)
        let packetBits = mahimahiPacketBytes * 8
        for (bin, packets) in packetsPerBin.enumerated() {
            let endMilliseconds = min((bin + 1) * binMilliseconds, lastMilliseconds)
            let widthMilliseconds = endMilliseconds - bin * binMilliseconds
            endsSeconds.append(TimeUnit.ms.seconds(Double(endMilliseconds)))
            bandwidthsBitsPerSecond.append(Double(packets * packetBits * 1000) / Double(widthMilliseconds))
        }
        let trace = try makeTrace(
            file: file, name: name, periodEndSeconds: endsSeconds, bandwidthBitsPerSecond: bandwidthsBitsPerSecond
        )
        return (trace, [])
    }
}
