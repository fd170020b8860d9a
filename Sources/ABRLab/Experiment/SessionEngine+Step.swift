/// The face a ``StreamingSession`` sees: one call that advances and says where the session
/// stopped, with what the caller needs there.
extension SessionEngine {
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep {
        // Advanced first, then read: what a step shows is the session after the advance.
        switch try advance(events: events) {
        case .decide: return .decide(context())
        case .check(let progress): return .checkAbandonment(progress)
        case .waited(let milliseconds): return .waited(seconds: milliseconds / 1000)
        case .downloaded: return .downloaded(lastDownload)
        case .event(let event): return .network(event)
        case .finished: return .finished(result)
        }
    }
}
