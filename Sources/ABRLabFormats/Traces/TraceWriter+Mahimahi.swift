import ABRLab

extension TraceWriter {
    /// Fraction of a packet forgiven when counting delivered packets, so bit counts that are
    /// whole packets mathematically but land a hair below after floating-point sums still count.
    static let mahimahiPacketTolerance = 1e-6

    /// Mahimahi's delivery schedule, generated deterministically from the bandwidth.
    ///
    /// The trace is walked one millisecond at a time over its length rounded to whole ms. Packet n
    /// (1500 bytes) gets the timestamp t of the millisecond (t-1, t] in which the cumulative bits
    /// delivered reach n × 12 000, i.e. the count at t is `floor(bits(t) / 12000)` less the count
    /// before, rounded down with a tolerance of a millionth of a packet. Bits that never make up
    /// a whole packet are dropped, and because Mahimahi loops at its last timestamp, silence after
    /// the last packet shortens the loop. Latency is dropped. A trace whose periods last whole
    /// bins and deliver whole packets per bin reads back unchanged with the same bin width.
    public static func mahimahiText(_ trace: NetworkTrace) throws(InputError) -> String {
        let totalMilliseconds = Int((trace.durationSeconds * 1000).rounded())
        guard totalMilliseconds >= 1 else {
            throw InputError(file: trace.name, "the trace lasts under 1 ms; Mahimahi counts whole milliseconds")
        }
        let packetBits = Double(TraceLoader.mahimahiPacketBytes * 8)
        let ends = trace.periodEndSeconds
        let bandwidths = trace.bandwidthBitsPerSecond
        var text = ""
        var period = 0
        var periodStartSeconds = 0.0
        var bitsBeforePeriod = 0.0
        var packetsWritten = 0
        for milliseconds in 1...totalMilliseconds {
            let seconds = Double(milliseconds) / 1000
            while period < ends.count - 1, seconds >= ends[period] {
                bitsBeforePeriod += bandwidths[period] * (ends[period] - periodStartSeconds)
                periodStartSeconds = ends[period]
                period += 1
            }
            let bits = bitsBeforePeriod + bandwidths[period] * (seconds - periodStartSeconds)
            let packets = Int((bits / packetBits + mahimahiPacketTolerance).rounded(.down))
            guard packets > packetsWritten else { continue }
            let line = "\(milliseconds)\n"
            for _ in packetsWritten..<packets { text += line }
            packetsWritten = packets
        }
        guard packetsWritten > 0 else {
            throw InputError(file: trace.name, "the trace delivers less than one 1500-byte packet; Mahimahi cannot express it")
        }
        return text
    }
}
