/// What a strategy replied to a point of a session it heard (``SessionStrategy/hear(_:context:)``).
public enum StrategyReply: Sendable {
    /// The decision of the next request, at ``SessionStep/decide``.
    case decision(RequestDecision)
    /// The answer of an abandonment check, at ``SessionStep/checkAbandonment(_:)``.
    case abandonment(AbandonmentAnswer)
    /// Nothing to reply: a wait or a download heard, a network event or the end passed over.
    case heard
}
