/// What a strategy asks for before a request: a level, optionally time to stay idle first, and
/// on the `live` profile optionally a playback rate.
public struct RequestDecision: Equatable, Sendable {
    /// 0-based level of the segment to request.
    public var level: Int
    /// Idle time before the request; the buffer drains meanwhile and the trace moves on.
    public var delaySeconds: Double
    /// Playback rate to play at from this decision until the next one (live profile only;
    /// 0.5…2, dash.js's limits); `nil` lets the player's catch-up controller decide.
    public var playbackRate: Double?

    public init(level: Int, delaySeconds: Double = 0, playbackRate: Double? = nil) {
        self.level = level
        self.delaySeconds = delaySeconds
        self.playbackRate = playbackRate
    }
}
