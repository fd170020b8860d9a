/// A trace's period durations and latencies in milliseconds.
public struct MillisecondPeriods: Equatable, Sendable {
    public var durations: [Double]
    /// One per period, when the trace records latency.
    public var latencies: [Double]?

    public init(durations: [Double], latencies: [Double]?) {
        self.durations = durations
        self.latencies = latencies
    }
}
