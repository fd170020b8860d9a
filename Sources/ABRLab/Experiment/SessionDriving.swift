/// What ``StreamingSession`` asks of the engine it holds, whatever its player model: one
/// dispatch per call.
///
/// Its conformers are three small holders, each naming its model, so every witness calls the
/// engine specialised for that model; a conformance of the generic engine itself would run the
/// generic code, looking up the model's metadata and calling it through its witness table at
/// every step. They spell their members out: a default implementation reading the engine
/// through a protocol requirement would copy the whole engine at each read.
protocol SessionDriving: Sendable {
    var info: SessionInfo { get }
    var segmentIndex: Int { get }
    var segments: [SegmentRecord] { get }
    var downloads: [DownloadRecord] { get }
    var nowMs: Double { get }
    func context() -> DecisionContext
    /// Advances to the next point and says what it is: one call, made where the model is known.
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep
    mutating func decide(_ decision: RequestDecision) throws(EmulationError)
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult
}

/// The engine of a `pensieve` or `default` session.
struct WholeTransferEngine: SessionDriving {
    var engine: SessionEngine<WholeTransferModel>

    var info: SessionInfo { engine.info }
    var segmentIndex: Int { engine.segmentIndex }
    var segments: [SegmentRecord] { engine.recorder.segments }
    var downloads: [DownloadRecord] { engine.recorder.downloads }
    var nowMs: Double { engine.model.nowMs }
    func context() -> DecisionContext { engine.context() }
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep { try engine.step(events: events) }
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) { try engine.decide(decision) }
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) { try engine.answer(answer) }
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}

/// The engine of a `sabre` session.
struct SegmentBufferEngine: SessionDriving {
    var engine: SessionEngine<SegmentBufferModel>

    var info: SessionInfo { engine.info }
    var segmentIndex: Int { engine.segmentIndex }
    var segments: [SegmentRecord] { engine.recorder.segments }
    var downloads: [DownloadRecord] { engine.recorder.downloads }
    var nowMs: Double { engine.model.nowMs }
    func context() -> DecisionContext { engine.context() }
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep { try engine.step(events: events) }
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) { try engine.decide(decision) }
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) { try engine.answer(answer) }
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}

/// The engine of a `live` session.
struct LiveStreamEngine: SessionDriving {
    var engine: SessionEngine<LiveStreamModel>

    var info: SessionInfo { engine.info }
    var segmentIndex: Int { engine.segmentIndex }
    var segments: [SegmentRecord] { engine.recorder.segments }
    var downloads: [DownloadRecord] { engine.recorder.downloads }
    var nowMs: Double { engine.model.nowMs }
    func context() -> DecisionContext { engine.context() }
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep { try engine.step(events: events) }
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) { try engine.decide(decision) }
    mutating func answer(_ answer: AbandonmentAnswer) throws(EmulationError) { try engine.answer(answer) }
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try engine.run(&strategy)
    }
}
