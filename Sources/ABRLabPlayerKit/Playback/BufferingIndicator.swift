import ABRLab

/// The buffering indicator's model (seed 004): from the buffered seconds seen at successive
/// times, the progress toward a target buffer, the buffer state, the fill rate and whether
/// playback is likely to keep up. A value type, updated by `update`, so it runs in simulated time.
public struct BufferingIndicator: Equatable, Sendable {
    /// The seed's target buffer: progress is full at 30 s.
    public static let defaultTargetBufferSeconds = 30.0
    /// The readiness marker's place on the bar: 15 % of the target (4.5 s of 30 s).
    public static let readinessFraction = 0.15
    /// The fill rate is recomputed only when more than this has passed since the last check.
    public static let fillRateMinimumIntervalSeconds = 0.1

    public let targetBufferSeconds: Double
    public private(set) var bufferSeconds: Double = 0
    /// `.unknown` until the first update.
    public private(set) var state: BufferState = .unknown
    /// `min(buffer / target, 1)`.
    public private(set) var progress: Double = 0
    /// Change of the buffer per second of time, e.g. `+0.8` while downloading faster than playing.
    public private(set) var fillRateSecondsPerSecond: Double = 0
    /// Whether a download is in progress.
    public private(set) var isNetworkActive = false
    private var lastCheckSeconds: Double
    private var lastCheckBufferSeconds = 0.0

    /// An indicator that has seen nothing yet; the fill rate's first interval starts at
    /// `startSeconds` with an empty buffer, as the seed's monitor starts at its creation.
    public init(targetBufferSeconds: Double = BufferingIndicator.defaultTargetBufferSeconds, startSeconds: Double = 0) {
        self.targetBufferSeconds = targetBufferSeconds > 0 ? targetBufferSeconds : Self.defaultTargetBufferSeconds
        self.lastCheckSeconds = startSeconds
    }

    /// Whether playback is likely to keep up: the buffer has reached the readiness marker,
    /// 15 % of the target (4.5 s with the default target). Never before the first update.
    public var isLikelyToKeepUp: Bool {
        state != .unknown && progress >= Self.readinessFraction
    }

    /// Takes a new reading at `atSeconds`.
    ///
    /// The fill rate follows the seed: it is `Δbuffer / Δtime` since the last check, and is
    /// recomputed only when more than 0.1 s has passed; otherwise the previous rate stays and
    /// the check is not moved. Intervals within a nanosecond of 0.1 s count as 0.1 s, so
    /// sampling every 0.1 s does not depend on how the sample times round.
    public mutating func update(bufferSeconds: Double, atSeconds: Double, isNetworkActive: Bool) {
        let buffer = bufferSeconds.isFinite ? max(0, bufferSeconds) : 0
        self.bufferSeconds = buffer
        state = BufferState(bufferSeconds: buffer)
        progress = Self.progress(bufferSeconds: buffer, targetBufferSeconds: targetBufferSeconds)
        self.isNetworkActive = isNetworkActive
        let elapsedSeconds = atSeconds - lastCheckSeconds
        guard elapsedSeconds > Self.fillRateMinimumIntervalSeconds + 1e-9 else { return }
        fillRateSecondsPerSecond = (buffer - lastCheckBufferSeconds) / elapsedSeconds
        lastCheckSeconds = atSeconds
        lastCheckBufferSeconds = buffer
    }

    /// `min(buffer / target, 1)`, never below 0.
    public static func progress(bufferSeconds: Double, targetBufferSeconds: Double = defaultTargetBufferSeconds) -> Double {
        guard targetBufferSeconds > 0, bufferSeconds > 0 else { return 0 }
        return min(bufferSeconds / targetBufferSeconds, 1)
    }
}
