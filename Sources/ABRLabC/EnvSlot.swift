import ABRLab

/// One session of an environment, stepped decision by decision, with the Pensieve state its
/// observation is made of.
struct EnvSlot {
    /// Where the slot stands: before its first reset, mid-episode, or at an episode's end (or
    /// after an emulation error), waiting for a reset.
    private enum Phase {
        case idle
        case deciding
        case ended
    }

    /// The session; set while `phase` is `.deciding` or `.ended` after a reset. Kept apart from
    /// the phase so stepping mutates it in place (a copy held anywhere else would make the
    /// session copy its engine).
    private var session: StreamingSession?
    private var phase = Phase.idle
    private(set) var traceIndex = -1
    private(set) var sessionSeed: UInt64 = 0
    private(set) var state = PensieveState(columns: EnvSlot.stateColumns)
    private var previousLevel: Int?
    var shuffle: TraceShuffle

    /// Pensieve's `S_LEN`.
    static let stateColumns = 8

    init(traceCount: Int, seed: UInt64) {
        shuffle = TraceShuffle(count: traceCount, seed: seed)
    }

    var needsReset: Bool { phase != .deciding }

    /// Starts a session over trace `trace` and runs it to its first decision.
    mutating func reset(_ configuration: EnvConfiguration, trace: Int) throws(EnvError) {
        phase = .ended
        traceIndex = trace
        sessionSeed = configuration.sessionSeed(trace: trace)
        state = PensieveState(columns: Self.stateColumns)
        previousLevel = nil
        do {
            session = try StreamingSession(
                emulator: configuration.emulator, strategyID: configuration.strategyID, trace: configuration.traces[trace],
                video: configuration.video, seed: sessionSeed
            )
        } catch {
            session = nil
            throw .emulation(error.description)
        }
        if try advance(recordsState: true) != nil { throw .emulation("\(configuration.traces[trace].name): the session ended before its first decision") }
        phase = .deciding
    }

    /// Plays `level` (0-based) for the next segment and runs to the next decision or the end.
    mutating func step(_ configuration: EnvConfiguration, level: Int, recordsState: Bool) throws(EnvError) -> EnvStep {
        guard phase == .deciding else {
            throw .invalid(phase == .idle ? "step before reset: call reset() first" : "the episode has ended: call reset() before stepping again")
        }
        guard level >= 0, level < configuration.levelCount else {
            throw .invalid("action \(level) is outside the ladder: levels are 0 to \(configuration.levelCount - 1)")
        }
        phase = .ended
        let before = session!.segmentCountDelivered
        do {
            try session!.decide(RequestDecision(level: level))
        } catch {
            throw .emulation(error.description)
        }
        let result = try advance(recordsState: recordsState)
        var step = EnvStep(reward: 0, terminated: result != nil)
        let segments = session!.segments
        if segments.count > before, let segment = segments.last {
            step.segment = segment
            if case .perSegment(let model) = configuration.scoring {
                let score = model.segmentScore(
                    level: segment.level, previousLevel: previousLevel, rebufferSeconds: segment.rebufferSeconds, ladder: configuration.video.ladder
                )
                step.reward = score
                step.segmentScore = score
            }
            previousLevel = segment.level
        }
        if let result {
            do {
                let (total, scores) = try configuration.scoring.score(result, video: configuration.video, seed: sessionSeed)
                step.qoeTotal = total
                if case .perSegment = configuration.scoring {} else {
                    step.reward = total
                    step.segmentScore = scores.last
                }
            } catch {
                throw .emulation("\(configuration.traces[traceIndex].name): the QoE model failed: \(error)")
            }
        } else {
            phase = .deciding
        }
        return step
    }

    /// Runs the session to its next decision (nil) or its end (the result), answering every
    /// abandonment check with "go on" and recording each delivered segment in the state.
    private mutating func advance(recordsState: Bool) throws(EnvError) -> SessionResult? {
        var running = session.take()!
        defer { session = running }
        do {
            while true {
                switch try running.next() {
                case .decide: return nil
                case .checkAbandonment: try running.answer(.goOn)
                case .waited, .network: continue
                case .downloaded(let download):
                    if recordsState, !download.abandoned, !download.isReplacement { state.record(download, context: running.context) }
                case .finished(let result): return result
                }
            }
        } catch {
            throw .emulation(error.description)
        }
    }

    /// The context the next decision sees (a copy).
    var context: DecisionContext? { session?.context }
}

extension StreamingSession {
    /// Segments delivered so far.
    var segmentCountDelivered: Int { segments.count }
}
