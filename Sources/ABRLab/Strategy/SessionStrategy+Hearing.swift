extension SessionStrategy {
    /// Calls the hook of this strategy for `step`, a point of a session, on `context`, what the
    /// session shows there: its decision at a decision, its answer at an abandonment check; it
    /// hears a wait or a download; a network event and the end are nothing to it. The one place a
    /// point becomes a call to a strategy: the engine's loop answers every point with it
    /// (``SessionEmulator``, a shared link's players), and a strategy that follows a session it
    /// does not play (Python's experts) hears it the same way. The strategy's errors are its own.
    @inline(__always)
    public mutating func hear(_ step: SessionStep, context: DecisionContext) throws -> StrategyReply {
        switch step {
        case .decide:
            return .decision(try decide(context))
        case .checkAbandonment(let progress):
            return .abandonment(try answerAbandonment(progress))
        case .waited(let seconds):
            try didWait(seconds: seconds, context: context)
            return .heard
        case .downloaded(let record):
            try didDownload(record, context: context)
            return .heard
        case .network, .finished:
            return .heard
        }
    }
}
