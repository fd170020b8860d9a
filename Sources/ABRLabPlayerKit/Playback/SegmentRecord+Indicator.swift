import ABRLab

/// The buffering indicator's readings (seed 004) for one segment row, taken when the segment has
/// arrived and any full-buffer wait is over.
extension SegmentRecord {
    /// Buffer over the indicator's 30 s target, capped at 1.
    public var bufferProgress: Double {
        min(bufferAfterSeconds / BufferingIndicator.defaultTargetBufferSeconds, 1)
    }

    /// Buffer gained per second over this segment's interval (download and wait): positive while
    /// the buffer fills, negative while it drains.
    public var fillRateSecondsPerSecond: Double {
        let interval = downloadTimeSeconds + waitSeconds
        return interval > 0 ? (bufferAfterSeconds - bufferBeforeSeconds) / interval : 0
    }

    /// Whether the buffer has reached the readiness marker, 15 % of the target.
    public var isLikelyToKeepUp: Bool {
        bufferAfterSeconds >= BufferingIndicator.readinessFraction * BufferingIndicator.defaultTargetBufferSeconds
    }

    /// Share of this segment's interval the network was busy downloading (the rest is waiting
    /// on a full buffer).
    public var networkActiveShare: Double {
        let interval = downloadTimeSeconds + waitSeconds
        return interval > 0 ? downloadTimeSeconds / interval : 0
    }
}
