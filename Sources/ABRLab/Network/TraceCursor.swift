/// A position in a looping trace, and the two ways a session moves it: downloading bytes and
/// letting time pass.
///
/// The arithmetic follows Pensieve's `fixed_env.py` operation for operation, so that sessions
/// under the `pensieve` profile match its results to the last bits.
public struct TraceCursor {
    private let ends: [Double]
    private let bandwidths: [Double]
    private let latencies: [Double]?
    /// Index of the current period.
    public private(set) var period = 0
    /// Seconds since the start of the current pass through the trace.
    public private(set) var timeSeconds = 0.0

    public init(trace: NetworkTrace) {
        ends = trace.periodEndSeconds
        bandwidths = trace.bandwidthBitsPerSecond
        latencies = trace.latencySeconds
    }

    /// The latency the trace records at the current position, if it records any.
    public var currentLatencySeconds: Double? { latencies?[period] }

    /// Downloads `sizeBytes`, of which only `payloadFraction` of the bandwidth carries data, and
    /// returns the time it took. Returns `nil` once the download has run for `limitSeconds`.
    public mutating func download(sizeBytes: Double, payloadFraction: Double, limitSeconds: Double) -> Double? {
        var delay = 0.0
        var sent = 0.0
        while true {
            let throughput = bandwidths[period] / 8
            let duration = ends[period] - timeSeconds
            let payload = throughput * duration * payloadFraction
            if sent + payload > sizeBytes {
                let fraction = (sizeBytes - sent) / throughput / payloadFraction
                delay += fraction
                timeSeconds += fraction
                return delay
            }
            sent += payload
            delay += duration
            if delay > limitSeconds { return nil }
            moveToNextPeriod()
        }
    }

    /// Lets `milliseconds` pass with nothing downloaded, in Pensieve's order of operations.
    public mutating func advance(milliseconds: Double) {
        var remaining = milliseconds
        while true {
            let duration = ends[period] - timeSeconds
            if duration > remaining / 1000 {
                timeSeconds += remaining / 1000
                return
            }
            remaining -= duration * 1000
            moveToNextPeriod()
        }
    }

    @inline(__always)
    private mutating func moveToNextPeriod() {
        timeSeconds = ends[period]
        period += 1
        if period == ends.count {
            period = 0
            timeSeconds = 0
        }
    }
}
