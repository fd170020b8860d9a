/// A ``SessionEngine`` as ``StreamingSession`` steps it: the engine, and the context its caller
/// reads between steps, kept as the batch path keeps its own (``SessionEngine/run(_:)``).
///
/// The context is brought up to date in place where the batch path refreshes its one (after a
/// wait, after a request), so a decision point costs no new context, and the history it holds is
/// dropped before each request so the recorder extends the history in place. Between a
/// decision and the end of its request (abandonment checks, network events) it is behind the
/// session, and ``StreamingSession/context`` builds what a strategy would see; it is current at
/// every decision.
struct SessionStepper<Model: PlayerModel>: Sendable {
    /// The engine; a shared link moves it between its points, where the kept context is not
    /// current anyway (``SharedLinkSession``).
    var engine: SessionEngine<Model>
    /// The kept context; what the session shows while `contextIsCurrent`.
    private(set) var context: DecisionContext
    private(set) var contextIsCurrent = true

    init(engine: consuming SessionEngine<Model>) {
        context = engine.context()
        self.engine = engine
    }

    /// What a strategy sees now, read from the stepper `stepper` points to: the kept context
    /// where it is current, else a new one.
    static func currentContext(_ stepper: UnsafeMutablePointer<Self>) -> DecisionContext {
        stepper.pointee.contextIsCurrent ? stepper.pointee.context : stepper.pointee.engine.context()
    }

    /// The buffer a strategy sees now, read off the kept context where it is current (no copy).
    static func currentBufferSeconds(_ stepper: UnsafeMutablePointer<Self>) -> Double {
        stepper.pointee.contextIsCurrent ? stepper.pointee.context.bufferSeconds : stepper.pointee.engine.context().bufferSeconds
    }

    /// Runs to the next point and says what it is.
    @inline(__always)
    mutating func step(events: Bool) throws(EmulationError) -> SessionStep {
        while true {
            let point: EnginePoint
            do { point = try engine.advance(events: events) } catch {
                contextIsCurrent = false
                throw error
            }
            if let step = answer(point) { return step }
        }
    }

    /// The step a point is; nil for a playback update, which a stepped session never enables
    /// and passes were one to come.
    @inline(__always)
    private mutating func answer(_ point: EnginePoint) -> SessionStep? {
        switch point {
        case .playback:
            return nil
        case .decide:
            // Nothing changes between the refresh after the previous request (or wait) and the
            // next decision; the batch path decides on the same context.
            return .decide
        case .check(let progress):
            return .checkAbandonment(progress)
        case .waited(let milliseconds):
            refreshContext()
            return .waited(seconds: milliseconds / 1000)
        case .downloaded:
            refreshContext()
            return .downloaded(engine.lastDownload)
        case .event(let event):
            return .network(event)
        case .finished:
            contextIsCurrent = false
            return .finished(engine.result)
        }
    }

    @inline(__always)
    private mutating func refreshContext() {
        engine.refresh(&context)
        contextIsCurrent = true
    }

    /// Starts the request `decision` asks for. A decision refused changes nothing, the context
    /// included.
    @inline(__always)
    mutating func decide(_ decision: RequestDecision) throws(EmulationError) {
        try engine.checkAwaitingDecision()
        try start(decision)
    }

    /// Starts the request that `choose` decides on the kept context, passed as it lies: this
    /// stepper is held exclusively meanwhile, so it is neither copied nor retained.
    @inline(__always)
    mutating func decide(with choose: (DecisionContext) throws -> RequestDecision) throws {
        try engine.checkAwaitingDecision()
        try start(choose(context))
    }

    /// Starts the request of `decision`, the session known to wait for one.
    @inline(__always)
    private mutating func start(_ decision: RequestDecision) throws(EmulationError) {
        try engine.checkRequest(decision)
        context.downloads = []
        contextIsCurrent = false
        try engine.start(decision)
    }

    /// Plays the rest of the session with `strategy`, as the batch path does.
    @inline(__always)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        context.downloads = []
        contextIsCurrent = false
        return try engine.run(&strategy)
    }
}

/// Sharing a link (``LinkGroup``): only a model that can (``SharedLinkModel``). The other
/// operations of a shared link reach the engine directly (``SharedLinkSession``).
extension SessionStepper where Model: SharedLinkModel {
    /// Answers every point with `strategy` on the kept context, as the batch path does, until the
    /// session ends or reaches a network event; the context is current again after the next
    /// request.
    @inline(__always)
    mutating func play<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> PlayStop {
        contextIsCurrent = false
        return try engine.play(&strategy, context: &context, events: true)
    }
}
