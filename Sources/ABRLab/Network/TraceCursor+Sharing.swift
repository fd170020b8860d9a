/// A download walked at a share of the link, for players that share one trace (``LinkGroup``):
/// at `fraction` of the bandwidth, either to the download's own next event (its end or the
/// period boundary) or for a stretch that ends before it.
///
/// At a `fraction` of 1 every number is the one ``step(_:)-(Download)`` computes, so a group of
/// one plays exactly the single session.
extension TraceCursor {
    /// Seconds from now to the download's own next event at `fraction` of the bandwidth: its end
    /// when it ends in this period, else the period's end.
    @inline(__always)
    func secondsToNextEvent(of download: Download, fraction: Double) -> Double {
        let throughput = bandwidths[period] / 8 * fraction
        let duration = ends[period] - timeSeconds
        if download.sentBytes + throughput * duration * download.payloadFraction > download.sizeBytes {
            return (download.sizeBytes - download.sentBytes) / throughput / download.payloadFraction
        }
        return duration
    }

    /// ``step(_:)-(Download)`` at `fraction` of the bandwidth: the download's whole time when it
    /// ended, `nil` when it crossed into the next period.
    @inline(__always)
    mutating func step(_ download: inout Download, fraction: Double) throws(TraceWalkStop) -> Double? {
        let throughput = bandwidths[period] / 8 * fraction
        let duration = ends[period] - timeSeconds
        let payload = throughput * duration * download.payloadFraction
        if download.sentBytes + payload > download.sizeBytes {
            let seconds = (download.sizeBytes - download.sentBytes) / throughput / download.payloadFraction
            download.delaySeconds += seconds
            timeSeconds += seconds
            return download.delaySeconds
        }
        download.sentBytes += payload
        download.delaySeconds += duration
        if download.delaySeconds > download.limitSeconds { throw .timeLimit }
        try moveToNextPeriod()
        return nil
    }

    /// Sends at `fraction` of the bandwidth for `seconds`, which end before the download's own
    /// next event (``secondsToNextEvent(of:fraction:)``): another player's event comes first.
    @inline(__always)
    mutating func advance(_ download: inout Download, seconds: Double, fraction: Double) throws(TraceWalkStop) {
        download.sentBytes += bandwidths[period] / 8 * fraction * seconds * download.payloadFraction
        download.delaySeconds += seconds
        timeSeconds += seconds
        if download.delaySeconds > download.limitSeconds { throw .timeLimit }
    }
}
