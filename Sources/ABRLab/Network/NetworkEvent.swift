/// A point in session time at which the network under a session changes what it does: a request
/// goes out, its first byte arrives, the trace enters its next period while a transfer runs, a
/// transfer (or a live chunk) ends, or a progress step ends where an abandonment check may run.
///
/// A session stepped with ``StreamingSession/nextEvent()`` stops at each, so that a scheduler can
/// interleave the transfers of several sessions in session time; idle waits (a strategy's delay,
/// a full buffer, a live segment not yet produced) pass in one step, as nothing flows then.
public struct NetworkEvent: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        case requestStart
        case firstByte
        case periodBoundary
        case transferEnd
        case progressCheck
    }

    public var kind: Kind
    /// Session time of the event.
    public var seconds: Double

    public init(kind: Kind, seconds: Double) {
        self.kind = kind
        self.seconds = seconds
    }
}
