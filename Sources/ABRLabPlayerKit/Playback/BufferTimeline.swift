import ABRLab

/// The buffered media of a played session over session time, rebuilt from its segment records,
/// and sampled through a `BufferingIndicator` (seed 004).
///
/// The model is the emulator's: before playback starts the buffer only fills; once it has
/// started the buffer drains at 1 s per second, stays at 0 while stalled, and jumps by the
/// segment's duration when a segment arrives. Each arrival is anchored on the record's own
/// numbers (`bufferAfterSeconds + waitSeconds`, the level before any full-buffer wait), so the
/// rebuilt level matches the emulator's at every download. A download is in progress from its
/// request to its last byte, `[downloadStartSeconds, downloadEndSeconds)`.
public struct BufferTimeline: Sendable {
    /// One row of the timeline.
    public struct Sample: Equatable, Sendable {
        public var timeSeconds: Double
        /// The indicator after taking this sample's reading.
        public var indicator: BufferingIndicator

        public init(timeSeconds: Double, indicator: BufferingIndicator) {
            self.timeSeconds = timeSeconds
            self.indicator = indicator
        }

        public var bufferSeconds: Double { indicator.bufferSeconds }
        public var state: BufferState { indicator.state }
        public var progress: Double { indicator.progress }
        public var fillRateSecondsPerSecond: Double { indicator.fillRateSecondsPerSecond }
        public var isLikelyToKeepUp: Bool { indicator.isLikelyToKeepUp }
        public var isNetworkActive: Bool { indicator.isNetworkActive }
    }

    /// The seed's update limit: at most 10 samples per second.
    public static let minimumIntervalSeconds = 0.1

    /// A segment's arrival: when, and the buffer right after it.
    private struct Arrival: Sendable {
        let timeSeconds: Double
        let bufferSeconds: Double
    }

    /// Time of the first request.
    public let startSeconds: Double
    /// When playback started; the buffer drains from then on.
    public let playbackStartSeconds: Double
    /// When playback reached the end.
    public let endSeconds: Double
    private let arrivals: [Arrival]
    private let downloads: [(startSeconds: Double, endSeconds: Double)]

    public init(session: SessionResult) {
        let segments = session.segments.sorted { $0.downloadEndSeconds < $1.downloadEndSeconds }
        startSeconds = segments.first?.downloadStartSeconds ?? 0
        let ready = session.transitions.first { $0.action == .didBecomeReady }
        playbackStartSeconds = ready.map(SessionResult.sessionSeconds) ?? startSeconds + session.startupSeconds
        endSeconds = session.endSeconds.isFinite ? max(session.endSeconds, startSeconds) : startSeconds
        arrivals = segments.map { Arrival(timeSeconds: $0.downloadEndSeconds, bufferSeconds: $0.bufferAfterSeconds + $0.waitSeconds) }
        downloads = segments.map { ($0.downloadStartSeconds, $0.downloadEndSeconds) }
    }

    /// Buffered seconds at `timeSeconds`; at an arrival, the level just after it.
    public func bufferSeconds(atSeconds timeSeconds: Double) -> Double {
        guard let index = Self.lastIndex(in: arrivals.count, atOrBefore: timeSeconds, key: { arrivals[$0].timeSeconds }) else {
            return 0
        }
        let arrival = arrivals[index]
        guard timeSeconds > playbackStartSeconds else { return arrival.bufferSeconds }
        let drainedSeconds = timeSeconds - max(arrival.timeSeconds, playbackStartSeconds)
        return max(0, arrival.bufferSeconds - drainedSeconds)
    }

    /// Whether a download is in progress at `timeSeconds`.
    public func isDownloading(atSeconds timeSeconds: Double) -> Bool {
        guard let index = Self.lastIndex(in: downloads.count, atOrBefore: timeSeconds, key: { downloads[$0].startSeconds }) else {
            return false
        }
        return timeSeconds < downloads[index].endSeconds
    }

    /// Samples from the first request to the end of playback every `intervalSeconds` (raised to
    /// 0.1 s when smaller), plus one at the end. Sample times are rounded to microseconds so
    /// that `0.1 × 3` reads `0.3`.
    public func samples(
        intervalSeconds: Double = BufferTimeline.minimumIntervalSeconds,
        targetBufferSeconds: Double = BufferingIndicator.defaultTargetBufferSeconds
    ) -> [Sample] {
        let interval = intervalSeconds >= Self.minimumIntervalSeconds ? intervalSeconds : Self.minimumIntervalSeconds
        var indicator = BufferingIndicator(targetBufferSeconds: targetBufferSeconds, startSeconds: startSeconds)
        var samples: [Sample] = []
        var step = 0
        while true {
            var time = ((startSeconds + Double(step) * interval) * 1_000_000).rounded() / 1_000_000
            let isLast = time >= endSeconds
            if isLast { time = endSeconds }
            indicator.update(
                bufferSeconds: bufferSeconds(atSeconds: time), atSeconds: time, isNetworkActive: isDownloading(atSeconds: time)
            )
            samples.append(Sample(timeSeconds: time, indicator: indicator))
            if isLast { return samples }
            step += 1
        }
    }

    /// Index of the last of `count` ascending keys that is ≤ `value`.
    private static func lastIndex(in count: Int, atOrBefore value: Double, key: (Int) -> Double) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if key(middle) <= value { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
