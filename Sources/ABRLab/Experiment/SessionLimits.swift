/// A session's limits and the errors that name them.
struct SessionLimits: Sendable {
    let traceName: String
    let maxSessionSeconds: Double
    let maxSessionMs: Double
    let maxSessionSteps: Int

    init(traceName: String, profile: EmulationProfile) {
        self.traceName = traceName
        maxSessionSeconds = profile.maxSessionSeconds
        maxSessionMs = profile.maxSessionSeconds * 1000
        maxSessionSteps = profile.maxSessionSteps
    }

    /// The session's error for a walk over the trace that stopped at one of its limits.
    func error(_ stop: TraceWalkStop) -> EmulationError {
        switch stop {
        case .timeLimit: .sessionTimeLimit(trace: traceName, limitSeconds: maxSessionSeconds)
        case .stepLimit: .sessionStepLimit(trace: traceName, steps: maxSessionSteps)
        }
    }

    var timeLimit: EmulationError { error(.timeLimit) }

    /// Runs one walk over the trace, its stop as the session's error.
    @inline(__always)
    func walk<T>(_ body: () throws(TraceWalkStop) -> T) throws(EmulationError) -> T {
        do { return try body() } catch { throw self.error(error) }
    }
}
