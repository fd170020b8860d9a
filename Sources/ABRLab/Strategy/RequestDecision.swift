/// What a strategy asks for before a request: a level, and optionally time to stay idle first.
public struct RequestDecision: Equatable, Sendable {
    /// 0-based level of the segment to request.
    public var level: Int
    /// Idle time before the request; the buffer drains meanwhile and the trace moves on.
    public var delaySeconds: Double

    public init(level: Int, delaySeconds: Double = 0) {
        self.level = level
        self.delaySeconds = delaySeconds
    }
}
