/// What ``StreamingSession`` asks of the engine it holds, whatever its player model: one
/// dispatch per call.
protocol SessionDriving: Sendable {
    var info: SessionInfo { get }
    var segmentIndex: Int { get }
    var recorder: SessionRecorder { get }
    var nowMs: Double { get }
    func context() -> DecisionContext
    /// Advances to the next point and says what it is: one call, made where the model is known.
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep
    mutating func decide(_ decision: RequestDecision) throws(EmulationError)
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult
}

/// A ``SessionDriving`` that holds the engine of one concrete player model. Its conformers name
/// the model, so each requirement's witness calls the engine specialised for it; a conformance
/// of the generic engine itself would run the generic code, looking up the model's metadata
/// and calling it through its witness table at every step.
protocol ModelEngineHolder: SessionDriving {
    associatedtype Model: PlayerModel
    var engine: SessionEngine<Model> { get set }
}

extension ModelEngineHolder {
    var info: SessionInfo { engine.info }
    var segmentIndex: Int { engine.segmentIndex }
    var recorder: SessionRecorder { engine.recorder }
    var nowMs: Double { engine.model.nowMs }
    func context() -> DecisionContext { engine.context() }
    @inline(__always)
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep {
        // Advanced first, then read: what a step shows is the session after the advance.
        switch try engine.advance(events: events) {
        case .decide: return .decide(engine.context())
        case .check(let progress): return .checkAbandonment(progress)
        case .waited(let milliseconds): return .waited(seconds: milliseconds / 1000)
        case .downloaded: return .downloaded(engine.lastDownload)
        case .event(let event): return .network(event)
        case .finished: return .finished(engine.result)
        }
    }
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) { try engine.decide(decision) }
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) { try engine.answer(answer) }
}

// `run` is generic over the strategy, so a default in the extension above would stay generic
// over the holder too (Swift does not specialise one parameter of two) and run the engine
// unspecialised; each holder spells it out where its model is known.

/// The engine of a `pensieve` or `default` session.
struct WholeTransferEngine: ModelEngineHolder {
    var engine: SessionEngine<WholeTransferModel>

    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}

/// The engine of a `sabre` session.
struct SegmentBufferEngine: ModelEngineHolder {
    var engine: SessionEngine<SegmentBufferModel>

    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}

/// The engine of a `live` session.
struct LiveStreamEngine: ModelEngineHolder {
    var engine: SessionEngine<LiveStreamModel>

    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}
