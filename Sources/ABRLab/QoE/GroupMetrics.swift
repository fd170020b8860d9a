import Foundation

/// How a group of players on one link shared it (one row of `groups.csv`): the fairness,
/// efficiency and stability measures of the shared-link literature, over the players that
/// finished. docs/output.md gives every formula and its source.
public struct GroupMetrics: Equatable, Sendable {
    /// What one player contributes: when it joined the link and what it played.
    public struct Player: Sendable {
        /// Link time at which the player's session time starts.
        public var startSeconds: Double
        public var segments: [SegmentRecord]
        /// The mean bitrate of the segments it played (`avg_bitrate_kbps`).
        public var meanBitrateKbps: Double
        /// Its mean per-segment QoE (`qoe_per_segment`).
        public var qoePerSegment: Double

        public init(startSeconds: Double, segments: [SegmentRecord], meanBitrateKbps: Double, qoePerSegment: Double) {
            self.startSeconds = startSeconds
            self.segments = segments
            self.meanBitrateKbps = meanBitrateKbps
            self.qoePerSegment = qoePerSegment
        }
    }

    /// Jain's index over the players' mean bitrates: 1 when equal, k/n when k of n share alike and the rest get nothing.
    public var jain: Double
    /// FESTIVE's unfairness, √(1 − Jain).
    public var unfairness: Double
    /// FESTIVE's inefficiency, |Σ bitrates − capacity| / capacity, averaged over the time all players are active.
    public var inefficiency: Double
    /// FESTIVE's instability over the last 20 s, averaged over players and over the time all are active.
    public var instability: Double
    /// Hoßfeld's QoE fairness F = 1 − 2σ / (H − L) over the players' per-segment QoE.
    public var qoeFairness: Double
    /// Bits the players received over what the link could carry from the first request to the last transfer's end.
    public var utilisation: Double
    /// Seconds during which every player was active (between its first request and its last transfer's end).
    public var overlapSeconds: Double

    /// FESTIVE's window for instability, seconds.
    public static let instabilityWindowSeconds = 20
    /// Step at which inefficiency samples the link, seconds.
    public static let sampleSeconds = 0.1

    public init(
        jain: Double, unfairness: Double, inefficiency: Double, instability: Double, qoeFairness: Double, utilisation: Double,
        overlapSeconds: Double
    ) {
        self.jain = jain
        self.unfairness = unfairness
        self.inefficiency = inefficiency
        self.instability = instability
        self.qoeFairness = qoeFairness
        self.utilisation = utilisation
        self.overlapSeconds = overlapSeconds
    }

    /// The measures of `players` on `trace` (bandwidth times `bandwidthMultiplier`); `qoeRange`
    /// is the QoE scale's [L, H] per segment, `nil` where the model has none (F is then NaN).
    public init(players: [Player], trace: NetworkTrace, bandwidthMultiplier: Double = 1, qoeRange: ClosedRange<Double>?) {
        let link = LinkCapacity(trace: trace, multiplier: bandwidthMultiplier)
        jain = Self.jain(players.map(\.meanBitrateKbps))
        unfairness = jain.isNaN ? .nan : (max(0, 1 - jain)).squareRoot()
        qoeFairness = qoeRange.map { Self.qoeFairness(players.map(\.qoePerSegment), low: $0.lowerBound, high: $0.upperBound) } ?? .nan
        let active = players.filter { !$0.segments.isEmpty }
        let starts = active.map { $0.startSeconds + $0.segments[0].downloadStartSeconds }
        let ends = active.map { $0.startSeconds + $0.segments[$0.segments.count - 1].downloadEndSeconds }
        if let first = starts.min(), let last = ends.max(), last > first {
            let bits = active.reduce(0.0) { total, player in
                total + player.segments.reduce(0.0) { $0 + (Double($1.sizeBytes) + $1.wastedBytes) * 8 }
            }
            utilisation = bits / link.bits(from: first, to: last)
        } else {
            utilisation = .nan
        }
        // Players that never play at the same time have no overlap: the measures over it are NaN.
        let overlapStart = starts.max() ?? 0
        let overlapEnd = ends.min() ?? 0
        guard active.count == players.count, !players.isEmpty, overlapEnd > overlapStart else {
            overlapSeconds = 0
            inefficiency = .nan
            instability = .nan
            return
        }
        let overlap = overlapStart...overlapEnd
        overlapSeconds = overlapEnd - overlapStart
        // Samples move forward in time: each player's segment and the link's period are found
        // by moving an index forward, not by a search per sample.
        var sum = 0.0
        var samples = 0
        var steps = 0
        var time = overlap.lowerBound
        var positions = [Int](repeating: 0, count: active.count)
        while time < overlap.upperBound {
            let capacityKbps = link.bitsPerSecond(at: time) / 1000
            if capacityKbps > 0 {
                var total = 0.0
                for (index, player) in active.enumerated() {
                    let local = time - player.startSeconds
                    var position = positions[index]
                    while position + 1 < player.segments.count, player.segments[position + 1].downloadStartSeconds <= local { position += 1 }
                    positions[index] = position
                    total += player.segments[position].bitrateKbps
                }
                sum += abs(total - capacityKbps) / capacityKbps
                samples += 1
            }
            steps += 1
            time = overlap.lowerBound + Double(steps) * Self.sampleSeconds
        }
        inefficiency = samples > 0 ? sum / Double(samples) : .nan
        instability = Self.instability(active, over: overlap)
    }

    /// Jain's fairness index (Σx)² / (n·Σx²); NaN when every value is 0 or there are none.
    public static func jain(_ values: [Double]) -> Double {
        let squares = values.reduce(0) { $0 + $1 * $1 }
        guard !values.isEmpty, squares > 0 else { return .nan }
        let sum = values.reduce(0, +)
        return sum * sum / (Double(values.count) * squares)
    }

    /// Hoßfeld's F = 1 − 2σ / (H − L), σ the population standard deviation of the values clipped
    /// to [L, H]: 1 when all are equal, 0 when half sit at L and half at H.
    public static func qoeFairness(_ values: [Double], low: Double, high: Double) -> Double {
        guard !values.isEmpty, high > low else { return .nan }
        let clipped = values.map { min(max($0, low), high) }
        let mean = clipped.reduce(0, +) / Double(clipped.count)
        let variance = clipped.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(clipped.count)
        return 1 - 2 * variance.squareRoot() / (high - low)
    }

    /// The bitrate of the segment `player` is fetching or last fetched at link time `seconds`
    /// (its first before it starts).
    static func bitrateKbps(of player: Player, atLinkSeconds seconds: Double) -> Double {
        let local = seconds - player.startSeconds
        var low = 0
        var high = player.segments.count
        while low < high {
            let middle = (low + high) / 2
            if player.segments[middle].downloadStartSeconds <= local { low = middle + 1 } else { high = middle }
        }
        return player.segments[max(0, low - 1)].bitrateKbps
    }

    /// FESTIVE's instability Σ_{d<k} |b(t−d) − b(t−d−1)|·(k−d) / Σ_{1≤d≤k} b(t−d)·(k−d), k = 20 s
    /// on a 1 s grid, averaged over every second of `overlap` and over the players.
    static func instability(_ players: [Player], over overlap: ClosedRange<Double>) -> Double {
        let window = instabilityWindowSeconds
        let seconds = Int((overlap.upperBound - overlap.lowerBound).rounded(.down))
        guard seconds >= 1 else { return .nan }
        var total = 0.0
        var count = 0
        for player in players {
            // b(t) for t from window seconds before the overlap to its end.
            let series = (-window...seconds).map { bitrateKbps(of: player, atLinkSeconds: overlap.lowerBound + Double($0)) }
            for t in 1...seconds {
                let at = t + window
                var changes = 0.0
                var weights = 0.0
                for d in 0..<window {
                    changes += abs(series[at - d] - series[at - d - 1]) * Double(window - d)
                    weights += series[at - d - 1] * Double(window - d - 1)
                }
                guard weights > 0 else { continue }
                total += changes / weights
                count += 1
            }
        }
        return count > 0 ? total / Double(count) : .nan
    }
}

/// A looping trace as a link's capacity over time.
private struct LinkCapacity {
    let ends: [Double]
    let bitsPerSecond: [Double]
    let duration: Double

    init(trace: NetworkTrace, multiplier: Double) {
        ends = trace.periodEndSeconds
        bitsPerSecond = trace.bandwidthBitsPerSecond.map { $0 * multiplier }
        duration = ends[ends.count - 1]
    }

    func period(at seconds: Double) -> Int {
        let position = seconds.truncatingRemainder(dividingBy: duration)
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func bitsPerSecond(at seconds: Double) -> Double { bitsPerSecond[period(at: seconds)] }

    /// Bits the link can carry between two link times.
    func bits(from start: Double, to end: Double) -> Double {
        let passes = ((end - start) / duration).rounded(.down)
        let whole = passes * ends.indices.reduce(0.0) { $0 + bitsPerSecond[$1] * (ends[$1] - ($1 == 0 ? 0 : ends[$1 - 1])) }
        var time = start + passes * duration
        var total = whole
        while time < end {
            let index = period(at: time)
            let offset = time - time.truncatingRemainder(dividingBy: duration)
            let periodEnd = min(end, offset + ends[index])
            total += bitsPerSecond[index] * max(0, periodEnd - time)
            time = periodEnd > time ? periodEnd : end
        }
        return total
    }
}
