/// How long the player takes to follow the network up: each rise of the network's sustainable
/// level opens a record, closed when a segment at or above that level starts playing.
///
/// Follows Sabre's bookkeeping (Spiteri, Nguyen, Sitaraman, MMSys 2018,
/// doi:10.1145/3204949.3204953): records open on the network clock and close on the play clock,
/// each counts at most one buffer's worth of time, and records still pending at the end are dropped.
struct ReactionTracker {
    private struct Record {
        var openedMs: Double
        var level: Int
        var closedMs: Double?
    }

    let maxBufferMs: Double
    private var pending: [Record] = []
    private var first = 0
    private(set) var totalMs = 0.0

    init(maxBufferMs: Double) {
        self.maxBufferMs = maxBufferMs
    }

    /// Counts the records opened before `now − max buffer`.
    mutating func matured(at nowMs: Double) {
        let cutoff = nowMs - maxBufferMs
        while first < pending.count, pending[first].openedMs < cutoff {
            let record = pending[first]
            first += 1
            if let closed = record.closedMs {
                totalMs += min(maxBufferMs, closed - record.openedMs)
            } else {
                totalMs += maxBufferMs
            }
        }
        if first > 32, first * 2 > pending.count {
            pending.removeFirst(first)
            first = 0
        }
    }

    /// Closes every open record whose level a segment of `level` reaches.
    mutating func close(upTo level: Int, at timeMs: Double) {
        for index in first..<pending.count where pending[index].closedMs == nil && pending[index].level <= level {
            pending[index].closedMs = timeMs
        }
    }

    /// The network's sustainable level changed from `previous` to `level` at `timeMs`.
    mutating func advertise(level: Int, previous: Int, at timeMs: Double, buffered: ArraySlice<Int>) {
        matured(at: timeMs)
        for index in first..<pending.count where pending[index].closedMs == nil && pending[index].level > level {
            pending[index].closedMs = timeMs
        }
        if level <= previous || buffered.contains(where: { $0 >= level }) { return }
        if pending[first...].contains(where: { $0.level >= level }) { return }
        pending.append(Record(openedMs: timeMs, level: level))
    }
}
