/// A position in a looping trace, and the two ways a session moves it: downloading bytes and
/// letting time pass.
///
/// The arithmetic follows Pensieve's `fixed_env.py` operation for operation, so that sessions
/// under the `pensieve` profile match its results to the last bits. Every period boundary
/// crossed spends one step of ``stepsLeft``, so a walk over a finely cut trace ends.
public struct TraceCursor: Sendable {
    let ends: [Double]
    let bandwidths: [Double]
    private let latencies: [Double]?
    /// The period a pass after the first starts at: 1 after a lead period, which plays once.
    private let loopStart: Int
    /// Index of the current period.
    public private(set) var period = 0
    /// Seconds since the start of the current pass through the trace.
    public internal(set) var timeSeconds = 0.0
    /// Steps the cursor may still take; a walk that needs more stops with ``TraceWalkStop/stepLimit``.
    /// Its owner may spend steps of its own from the same budget.
    public var stepsLeft: Int

    /// A cursor at the start of `trace`, or of `lead` when given: a period played once before
    /// the trace, which then loops without it (a live session's warm-up).
    public init(trace: NetworkTrace, lead: TracePeriod? = nil, stepLimit: Int = .max) {
        stepsLeft = stepLimit
        guard let lead, lead.durationSeconds > 0 else {
            ends = trace.periodEndSeconds
            bandwidths = trace.bandwidthBitsPerSecond
            latencies = trace.latencySeconds
            loopStart = 0
            return
        }
        ends = [lead.durationSeconds] + trace.periodEndSeconds.map { $0 + lead.durationSeconds }
        bandwidths = [lead.bandwidthBitsPerSecond] + trace.bandwidthBitsPerSecond
        latencies = trace.latencySeconds.map { [lead.latencySeconds ?? 0] + $0 }
        loopStart = 1
    }

    /// The latency the trace records at the current position, if it records any.
    public var currentLatencySeconds: Double? { latencies?[period] }

    /// A download under way: walked one period at a time by ``step(_:)-(Download)``, so that a
    /// scheduler can interleave it with other events.
    public struct Download: Sendable {
        let sizeBytes: Double
        let payloadFraction: Double
        let limitSeconds: Double
        /// Time the download has taken so far.
        public internal(set) var delaySeconds = 0.0
        var sentBytes = 0.0

        /// `sizeBytes`, of which only `payloadFraction` of the bandwidth carries data; the walk
        /// stops with ``TraceWalkStop/timeLimit`` once it has run for `limitSeconds`.
        public init(sizeBytes: Double, payloadFraction: Double, limitSeconds: Double) {
            self.sizeBytes = sizeBytes
            self.payloadFraction = payloadFraction
            self.limitSeconds = limitSeconds
        }
    }

    /// Time passing with nothing downloaded, walked one period at a time.
    public struct Idle: Sendable {
        var remainingMs: Double

        public init(milliseconds: Double) {
            remainingMs = milliseconds
        }
    }

    /// Downloads `sizeBytes`, of which only `payloadFraction` of the bandwidth carries data, and
    /// returns the time it took. Stops with ``TraceWalkStop/timeLimit`` once the download has run
    /// for `limitSeconds`.
    public mutating func download(sizeBytes: Double, payloadFraction: Double, limitSeconds: Double) throws(TraceWalkStop) -> Double {
        var download = Download(sizeBytes: sizeBytes, payloadFraction: payloadFraction, limitSeconds: limitSeconds)
        while true {
            if let seconds = try step(&download) { return seconds }
        }
    }

    /// Walks `download` to its end or to the next period boundary, whichever comes first:
    /// returns the download's whole time when it ended, `nil` when it crossed into the next period.
    @inline(__always)
    public mutating func step(_ download: inout Download) throws(TraceWalkStop) -> Double? {
        // The whole link: a share of 1 is exact arithmetic, so a player alone walks as a group of one.
        try step(&download, fraction: 1)
    }

    /// Lets `milliseconds` pass with nothing downloaded, in Pensieve's order of operations. The
    /// caller bounds `milliseconds`: a wait of 1e300 ms never shrinks by a period's length.
    public mutating func advance(milliseconds: Double) throws(TraceWalkStop) {
        var idle = Idle(milliseconds: milliseconds)
        while try !step(&idle) {}
    }

    /// Walks `idle` to its end or to the next period boundary: `true` when it ended.
    @inline(__always)
    public mutating func step(_ idle: inout Idle) throws(TraceWalkStop) -> Bool {
        let duration = ends[period] - timeSeconds
        if duration > idle.remainingMs / 1000 {
            timeSeconds += idle.remainingMs / 1000
            return true
        }
        idle.remainingMs -= duration * 1000
        try moveToNextPeriod()
        return false
    }

    /// Spends one step of ``stepsLeft`` on work of the owner's (a request, a check).
    public mutating func spendStep() throws(TraceWalkStop) {
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
    }

    /// Where the cursor stands: what a walk that is undone afterwards (a shared link's planning,
    /// ``LinkGroup``) saves and puts back.
    struct Position {
        fileprivate let period: Int
        fileprivate let timeSeconds: Double
        fileprivate let stepsLeft: Int
    }

    var position: Position { Position(period: period, timeSeconds: timeSeconds, stepsLeft: stepsLeft) }

    mutating func restore(_ position: Position) {
        period = position.period
        timeSeconds = position.timeSeconds
        stepsLeft = position.stepsLeft
    }

    @inline(__always)
    mutating func moveToNextPeriod() throws(TraceWalkStop) {
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
        timeSeconds = ends[period]
        period += 1
        if period == ends.count {
            period = loopStart
            timeSeconds = loopStart == 0 ? 0 : ends[loopStart - 1]
        }
    }
}
