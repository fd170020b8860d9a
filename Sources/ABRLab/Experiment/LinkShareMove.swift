/// How far a ``LinkGroup`` moves one player's transfer in its data phase, at its share of the link.
enum LinkShareMove: Sendable {
    /// To the transfer's own next event (its end or a period boundary) at `fraction` of the link.
    case toNextEvent(fraction: Double)
    /// For `seconds` at `fraction` of the link; another player's event comes before this one's.
    case advance(seconds: Double, fraction: Double)
}
