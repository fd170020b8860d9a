/// A looping network trace: consecutive periods of constant bandwidth.
///
/// Periods are stored as cumulative end times from the trace's start, so that a trace read from
/// Pensieve's "cooked" format keeps its time stamps bit for bit, and the emulator's arithmetic
/// matches Pensieve's. When a download runs past the last period, the trace starts over at time 0.
public struct NetworkTrace: Equatable, Sendable {
    /// Display name, usually the file name without a JSON/CSV extension.
    public var name: String
    /// What is known of the network path, when the trace says.
    public var path: NetworkPath?
    /// End of each period in seconds from the trace's start; strictly increasing, first > 0.
    public let periodEndSeconds: [Double]
    /// Bandwidth of each period, bits per second; finite and ≥ 0.
    public let bandwidthBitsPerSecond: [Double]
    /// Latency of each period in seconds, when the trace records latency.
    public let latencySeconds: [Double]?
    /// The periods in the milliseconds the file gave, when it gave milliseconds (Sabre's JSON),
    /// so millisecond-based models use them without a round trip through seconds.
    public package(set) var fileMilliseconds: MillisecondPeriods?

    public init(
        name: String,
        periodEndSeconds: [Double],
        bandwidthBitsPerSecond: [Double],
        latencySeconds: [Double]? = nil,
        path: NetworkPath? = nil
    ) throws(InputError) {
        guard !periodEndSeconds.isEmpty else { throw InputError(file: name, "the trace has no periods") }
        guard periodEndSeconds.count == bandwidthBitsPerSecond.count,
              latencySeconds.map({ $0.count == periodEndSeconds.count }) ?? true else {
            throw InputError(file: name, "period, bandwidth and latency counts differ")
        }
        var previous = 0.0
        for (index, end) in periodEndSeconds.enumerated() {
            guard end.isFinite, end > previous else {
                throw InputError(file: name, "period \(index + 1) does not end after the one before it")
            }
            previous = end
        }
        for (index, bandwidth) in bandwidthBitsPerSecond.enumerated() where !(bandwidth.isFinite && bandwidth >= 0) {
            throw InputError(file: name, "period \(index + 1) has bandwidth \(NumberText.readable(bandwidth)); it must be finite and ≥ 0")
        }
        for (index, latency) in (latencySeconds ?? []).enumerated() where !(latency.isFinite && latency >= 0) {
            throw InputError(file: name, "period \(index + 1) has latency \(NumberText.readable(latency)); it must be finite and ≥ 0")
        }
        self.name = name
        self.path = path
        self.periodEndSeconds = periodEndSeconds
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.latencySeconds = latencySeconds
    }

    /// Builds a trace from period durations.
    public init(name: String, periods: [TracePeriod], path: NetworkPath? = nil) throws(InputError) {
        var ends: [Double] = []
        ends.reserveCapacity(periods.count)
        var time = 0.0
        for period in periods {
            time += period.durationSeconds
            ends.append(time)
        }
        let latencies = periods.contains { $0.latencySeconds != nil } ? periods.map { $0.latencySeconds ?? 0 } : nil
        try self.init(
            name: name, periodEndSeconds: ends,
            bandwidthBitsPerSecond: periods.map(\.bandwidthBitsPerSecond),
            latencySeconds: latencies, path: path
        )
    }

    public var periodCount: Int { periodEndSeconds.count }

    /// Period durations and latencies in milliseconds: as the file gave them when it did, else
    /// converted from seconds.
    public var millisecondPeriods: MillisecondPeriods {
        if let fileMilliseconds { return fileMilliseconds }
        var previous = 0.0
        let durations = periodEndSeconds.map { end in
            defer { previous = end }
            return (end - previous) * 1000
        }
        return MillisecondPeriods(durations: durations, latencies: latencySeconds?.map { $0 * 1000 })
    }

    /// Length of one pass through the trace, seconds.
    public var durationSeconds: Double { periodEndSeconds[periodEndSeconds.count - 1] }

    public var periods: [TracePeriod] {
        (0..<periodCount).map { index in
            TracePeriod(
                durationSeconds: periodEndSeconds[index] - (index == 0 ? 0 : periodEndSeconds[index - 1]),
                bandwidthBitsPerSecond: bandwidthBitsPerSecond[index],
                latencySeconds: latencySeconds?[index]
            )
        }
    }

    /// Whether any period delivers data; a trace that never does cannot finish a download.
    public var deliversData: Bool { bandwidthBitsPerSecond.contains { $0 > 0 } }
}
