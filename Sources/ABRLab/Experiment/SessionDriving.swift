/// What ``StreamingSession`` asks of the engine it holds, whatever its player model: one
/// dispatch per call, the engine behind it specialised for its model.
protocol SessionDriving: Sendable {
    var info: SessionInfo { get }
    var segmentIndex: Int { get }
    var recorder: SessionRecorder { get }
    var nowMs: Double { get }
    func context() -> DecisionContext
    mutating func advance(events: Bool) throws(EmulationError) -> EnginePoint
    mutating func decide(_ decision: RequestDecision) throws(EmulationError)
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult
}

extension SessionEngine: SessionDriving {
    var nowMs: Double { model.nowMs }
}
