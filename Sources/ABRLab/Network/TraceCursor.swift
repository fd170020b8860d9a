/// A position in a looping trace, and the two ways a session moves it: downloading bytes and
/// letting time pass.
///
/// The arithmetic follows Pensieve's `fixed_env.py` operation for operation, so that sessions
/// under the `pensieve` profile match its results to the last bits. Every period boundary
/// crossed spends one step of ``stepsLeft``, so a walk over a finely cut trace ends.
public struct TraceCursor {
    private let ends: [Double]
    private let bandwidths: [Double]
    private let latencies: [Double]?
    /// Index of the current period.
    public private(set) var period = 0
    /// Seconds since the start of the current pass through the trace.
    public private(set) var timeSeconds = 0.0
    /// Steps the cursor may still take; a walk that needs more stops with ``TraceWalkStop/stepLimit``.
    /// Its owner may spend steps of its own from the same budget.
    public var stepsLeft: Int

    public init(trace: NetworkTrace, stepLimit: Int = .max) {
        stepsLeft = stepLimit
        ends = trace.periodEndSeconds
        bandwidths = trace.bandwidthBitsPerSecond
        latencies = trace.latencySeconds
    }

    /// The latency the trace records at the current position, if it records any.
    public var currentLatencySeconds: Double? { latencies?[period] }

    /// Downloads `sizeBytes`, of which only `payloadFraction` of the bandwidth carries data, and
    /// returns the time it took. Stops with ``TraceWalkStop/timeLimit`` once the download has run
    /// for `limitSeconds`.
    public mutating func download(sizeBytes: Double, payloadFraction: Double, limitSeconds: Double) throws(TraceWalkStop) -> Double {
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
            if delay > limitSeconds { throw .timeLimit }
            try moveToNextPeriod()
        }
    }

    /// Lets `milliseconds` pass with nothing downloaded, in Pensieve's order of operations. The
    /// caller bounds `milliseconds`: a wait of 1e300 ms never shrinks by a period's length.
    public mutating func advance(milliseconds: Double) throws(TraceWalkStop) {
        var remaining = milliseconds
        while true {
            let duration = ends[period] - timeSeconds
            if duration > remaining / 1000 {
                timeSeconds += remaining / 1000
                return
            }
            remaining -= duration * 1000
            try moveToNextPeriod()
        }
    }

    /// Spends one step of ``stepsLeft`` on work of the owner's (a request, a check).
    public mutating func spendStep() throws(TraceWalkStop) {
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
    }

    @inline(__always)
    private mutating func moveToNextPeriod() throws(TraceWalkStop) {
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
        timeSeconds = ends[period]
        period += 1
        if period == ends.count {
            period = 0
            timeSeconds = 0
        }
    }
}
