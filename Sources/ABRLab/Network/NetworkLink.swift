/// The network of the request-level profiles: a looping trace walked piecewise in milliseconds
/// and bits, with request latency paid in trace time, plain transfers, idle waits and transfers
/// in progress steps that an abandonment check can stop.
///
/// The arithmetic follows Sabre's simulator (Spiteri, Nguyen, Sitaraman, MMSys 2018,
/// doi:10.1145/3204949.3204953) operation for operation, so the `sabre` profile reproduces its
/// numbers; docs/emulation.md lists the profiles. Every walk stops at a period boundary crossed after
/// ``limitMs`` of trace time or once ``stepsLeft`` is spent, so none runs for ever, whatever the
/// trace's bandwidth and latency.
public struct NetworkLink: Sendable {
    private let durationsMs: [Double]
    /// Bandwidth per period in bits per millisecond (= kbit/s).
    let bitsPerMs: [Double]
    private let latenciesMs: [Double]
    /// The sustainable level of each period (see ``sustainableLevels(ladderKbps:segmentMs:)``).
    private let sustainable: [Int]

    public private(set) var period = 0
    /// Milliseconds left in the current period.
    public internal(set) var remainingMs: Double
    /// Trace time consumed since the session started, milliseconds; never reset by looping.
    public internal(set) var timeMs = 0.0
    /// Period changes that moved the sustainable level, in order, since the last ``takeLevelChanges()``.
    var levelChanges: [SustainableLevelChange] = []
    private let tracksLevels: Bool
    /// Trace time after which a walk stops with ``TraceWalkStop/timeLimit``, milliseconds.
    public let limitMs: Double
    /// Steps the link may still take (one per period boundary crossed); a walk that needs more
    /// stops with ``TraceWalkStop/stepLimit``. Its owner may spend steps of its own from it.
    public var stepsLeft: Int

    /// - Parameters:
    ///   - bandwidthMultiplier: scales every period's bandwidth (Sabre's `-nm`).
    ///   - fallbackLatencyMs: latency of traces that record none.
    ///   - ladderKbps, segmentMs: for the sustainable level that ramp-up and reaction metrics use;
    ///     pass an empty ladder to skip that bookkeeping.
    ///   - limitMs, stepLimit: where walks stop (see ``limitMs`` and ``stepsLeft``).
    public init(
        trace: NetworkTrace, bandwidthMultiplier: Double = 1, fallbackLatencyMs: Double,
        ladderKbps: [Double] = [], segmentMs: Double = 0, limitMs: Double = .infinity, stepLimit: Int = .max
    ) {
        self.limitMs = limitMs
        stepsLeft = stepLimit
        let periods = trace.millisecondPeriods
        durationsMs = periods.durations
        bitsPerMs = trace.bandwidthBitsPerSecond.map { $0 / 1000 * bandwidthMultiplier }
        latenciesMs = periods.latencies ?? Array(repeating: fallbackLatencyMs, count: periods.durations.count)
        tracksLevels = !ladderKbps.isEmpty
        sustainable = tracksLevels
            ? Self.sustainableLevels(bitsPerMs: bitsPerMs, latenciesMs: latenciesMs, ladderKbps: ladderKbps, segmentMs: segmentMs)
            : []
        remainingMs = durationsMs[0]
    }

    /// Sustainable level of the current period.
    public var sustainableLevel: Int { tracksLevels ? sustainable[period] : 0 }

    /// The highest level `i ≥ 1` whose bitrates `1…i` all fit in `bandwidth × (1 − latency / segment)`,
    /// or 0 when level 1 does not (level 0 is never tested).
    static func sustainableLevels(bitsPerMs: [Double], latenciesMs: [Double], ladderKbps: [Double], segmentMs: Double) -> [Int] {
        zip(bitsPerMs, latenciesMs).map { bandwidth, latency in
            let effective = bandwidth * (1 - latency / segmentMs)
            var level = 0
            var candidate = 1
            while candidate < ladderKbps.count, ladderKbps[candidate] <= effective {
                level = candidate
                candidate += 1
            }
            return level
        }
    }

    /// Pays one request latency in trace time, pro-rated across period boundaries, and returns it.
    public mutating func payLatency() throws(TraceWalkStop) -> Double {
        var units = 1.0
        var paid = 0.0
        while true {
            let latency = latenciesMs[period]
            let needed = units * latency
            if needed <= remainingMs {
                consume(needed)
                return paid + needed
            }
            let available = remainingMs
            consume(available)
            paid += available
            units -= available / latency
            try enterNextPeriod()
        }
    }

    /// A transfer under way, walked one period at a time by ``step(_:)-(Transfer)``.
    public struct Transfer: Sendable {
        var leftBits: Double
        /// Milliseconds the transfer has taken so far.
        public internal(set) var elapsedMs = 0.0

        public init(bits: Double) {
            leftBits = bits
        }
    }

    /// Transfers `bits` with nothing else going on; returns the milliseconds it took.
    public mutating func transfer(bits: Double) throws(TraceWalkStop) -> Double {
        var transfer = Transfer(bits: bits)
        while true {
            if let milliseconds = try step(&transfer) { return milliseconds }
        }
    }

    /// Walks `transfer` to its end or to the next period boundary: returns its whole time when it
    /// ended, `nil` when it crossed into the next period.
    @inline(__always)
    public mutating func step(_ transfer: inout Transfer) throws(TraceWalkStop) -> Double? {
        // The whole link: a share of 1 is exact arithmetic, so a player alone walks as a group of one.
        try step(&transfer, fraction: 1)
    }

    /// Lets `milliseconds` pass with nothing transferred.
    public mutating func idle(milliseconds: Double) throws(TraceWalkStop) {
        var left = milliseconds
        while left > remainingMs {
            left -= remainingMs
            consume(remainingMs)
            try enterNextPeriod()
        }
        consume(left)
    }

    /// One progress step of a transfer under way: it runs until at least `minBits` bits and
    /// `minMs` ms have passed, or `restBits` are done; walked one period at a time by
    /// ``step(_:)-(ProgressStep)``.
    public struct ProgressStep: Sendable {
        let restBits: Double
        var wantBits: Double
        var wantMs: Double
        /// Bits moved and milliseconds taken so far.
        public internal(set) var bits = 0.0
        public internal(set) var ms = 0.0

        public init(restBits: Double, minBits: Double, minMs: Double) {
            self.restBits = restBits
            wantBits = minBits
            wantMs = minMs
        }
    }

    /// Walks `progress` to its end or to the next period boundary: returns the bits moved and
    /// milliseconds taken when it ended, `nil` when it crossed into the next period.
    @inline(__always)
    public mutating func step(_ progress: inout ProgressStep) throws(TraceWalkStop) -> (bits: Double, ms: Double)? {
        // The whole link: a share of 1 is exact arithmetic, so a player alone walks as a group of one.
        try step(&progress, fraction: 1)
    }

    /// Spends one step of ``stepsLeft`` on work of the owner's (a request, a progress check).
    public mutating func spendStep() throws(TraceWalkStop) {
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
    }

    /// The sustainable-level changes at period boundaries since the last call, oldest first.
    mutating func takeLevelChanges() -> [SustainableLevelChange] {
        guard !levelChanges.isEmpty else { return [] }
        defer { levelChanges.removeAll(keepingCapacity: true) }
        return levelChanges
    }

    /// Where the link stands: what a walk that is undone afterwards (a shared link's planning,
    /// ``LinkGroup``) saves and puts back.
    struct Position {
        fileprivate let period: Int
        fileprivate let remainingMs: Double
        fileprivate let timeMs: Double
        fileprivate let stepsLeft: Int
        fileprivate let levelChanges: Int
    }

    var position: Position {
        Position(period: period, remainingMs: remainingMs, timeMs: timeMs, stepsLeft: stepsLeft, levelChanges: levelChanges.count)
    }

    /// Puts the link back where it stood at `position`, forgetting the level changes since.
    mutating func restore(_ position: Position) {
        period = position.period
        remainingMs = position.remainingMs
        timeMs = position.timeMs
        stepsLeft = position.stepsLeft
        if levelChanges.count > position.levelChanges { levelChanges.removeSubrange(position.levelChanges...) }
    }

    @inline(__always)
    mutating func consume(_ milliseconds: Double) {
        timeMs += milliseconds
        remainingMs -= milliseconds
    }

    mutating func enterNextPeriod() throws(TraceWalkStop) {
        guard timeMs <= limitMs else { throw .timeLimit }
        guard stepsLeft > 0 else { throw .stepLimit }
        stepsLeft -= 1
        let previous = sustainableLevel
        period += 1
        if period == durationsMs.count { period = 0 }
        remainingMs = durationsMs[period]
        if tracksLevels, sustainable[period] != previous {
            levelChanges.append(SustainableLevelChange(timeMs: timeMs, level: sustainable[period], previous: previous))
        }
    }
}

/// A period boundary at which the network's sustainable level changed.
struct SustainableLevelChange: Sendable {
    var timeMs: Double
    var level: Int
    var previous: Int
}
