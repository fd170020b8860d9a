/// Why a walk over a looping trace stopped before it was done: no trace, however slow, however
/// long its latency or however finely it is cut into periods, keeps a walk going for ever.
public enum TraceWalkStop: Error, Equatable, Sendable {
    /// The walk passed its time limit.
    case timeLimit
    /// The walk used up its budget of steps (period boundaries crossed).
    case stepLimit
}
