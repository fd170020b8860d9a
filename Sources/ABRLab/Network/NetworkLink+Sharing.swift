/// Transfers walked at a share of the link, for players that share one trace (``LinkGroup``):
/// at `fraction` of the bandwidth, either to the walk's own next event (its end, a progress
/// step's end, a period boundary) or for a stretch that ends before it.
///
/// At a `fraction` of 1 every number is the one the single walk computes, so a group of one
/// plays exactly the single session.
extension NetworkLink {
    /// Joins the link `milliseconds` into its trace: the trace moves on, and the session's own
    /// time (``timeMs``, the sustainable-level changes) starts there.
    mutating func join(atMilliseconds milliseconds: Double) throws(TraceWalkStop) {
        try idle(milliseconds: milliseconds)
        timeMs = 0
        levelChanges.removeAll()
    }

    /// Milliseconds to the transfer's end in this period, else to the period's end.
    @inline(__always)
    func millisecondsToNextEvent(of transfer: Transfer, fraction: Double) -> Double {
        let bandwidth = bitsPerMs[period] * fraction
        return transfer.leftBits <= remainingMs * bandwidth ? transfer.leftBits / bandwidth : remainingMs
    }

    /// ``step(_:)-(Transfer)`` at `fraction` of the bandwidth.
    @inline(__always)
    mutating func step(_ transfer: inout Transfer, fraction: Double) throws(TraceWalkStop) -> Double? {
        let bandwidth = bitsPerMs[period] * fraction
        let capacity = remainingMs * bandwidth
        if transfer.leftBits <= capacity {
            let time = transfer.leftBits / bandwidth
            consume(time)
            return transfer.elapsedMs + time
        }
        let time = remainingMs
        consume(time)
        transfer.elapsedMs += time
        transfer.leftBits -= capacity
        try enterNextPeriod()
        return nil
    }

    /// Sends at `fraction` of the bandwidth for `milliseconds`, which end before the transfer's
    /// own next event.
    @inline(__always)
    mutating func advance(_ transfer: inout Transfer, milliseconds: Double, fraction: Double) {
        transfer.leftBits -= bitsPerMs[period] * fraction * milliseconds
        transfer.elapsedMs += milliseconds
        consume(milliseconds)
    }

    /// Milliseconds to the progress step's end (or the transfer's) in this period, else to the
    /// period's end.
    @inline(__always)
    func millisecondsToNextEvent(of progress: ProgressStep, fraction: Double) -> Double {
        let bandwidth = bitsPerMs[period] * fraction
        if bandwidth > 0 {
            let need = max(progress.wantBits, progress.wantMs * bandwidth)
            let capacity = remainingMs * bandwidth
            let rest = progress.restBits - progress.bits
            if rest <= need && rest <= capacity { return rest / bandwidth }
            if need <= capacity { return need / bandwidth }
            return remainingMs
        }
        return progress.wantBits > 0 || progress.wantMs > remainingMs ? remainingMs : progress.wantMs
    }

    /// ``step(_:)-(ProgressStep)`` at `fraction` of the bandwidth.
    @inline(__always)
    mutating func step(_ progress: inout ProgressStep, fraction: Double) throws(TraceWalkStop) -> (bits: Double, ms: Double)? {
        let bandwidth = bitsPerMs[period] * fraction
        if bandwidth > 0 {
            let need = max(progress.wantBits, progress.wantMs * bandwidth)
            let capacity = remainingMs * bandwidth
            let rest = progress.restBits - progress.bits
            if rest <= need && rest <= capacity {
                let time = rest / bandwidth
                consume(time)
                return (progress.bits + rest, progress.ms + time)
            }
            if need <= capacity {
                let time = need / bandwidth
                consume(time)
                return (progress.bits + need, progress.ms + time)
            }
            let time = remainingMs
            consume(time)
            progress.bits += capacity
            progress.ms += time
            progress.wantBits -= capacity
            progress.wantMs -= time
            try enterNextPeriod()
            return nil
        }
        if progress.wantBits > 0 || progress.wantMs > remainingMs {
            let time = remainingMs
            consume(time)
            progress.ms += time
            progress.wantMs -= time
            try enterNextPeriod()
            return nil
        }
        consume(progress.wantMs)
        return (progress.bits, progress.ms + progress.wantMs)
    }

    /// Sends at `fraction` of the bandwidth for `milliseconds`, which end before the progress
    /// step's own next event.
    @inline(__always)
    mutating func advance(_ progress: inout ProgressStep, milliseconds: Double, fraction: Double) {
        let bits = bitsPerMs[period] * fraction * milliseconds
        progress.bits += bits
        progress.ms += milliseconds
        progress.wantBits -= bits
        progress.wantMs -= milliseconds
        consume(milliseconds)
    }
}
