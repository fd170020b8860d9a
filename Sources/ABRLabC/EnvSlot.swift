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
    /// The score of a first segment the settings played (first_level), paid with the first
    /// step's reward so an episode's rewards still sum to its QoE.
    private var startScore = 0.0
    /// Segments the current session plays.
    private var segmentCount = 0
    /// Segments the current session delivered so far.
    private var delivered = 0
    /// Steps of the current episode so far.
    private var steps = 0
    var shuffle: TraceShuffle
    /// The strategies following the session as experts (none unless the environment has some).
    private(set) var experts = EnvExperts()

    /// Pensieve's `S_LEN`.
    static let stateColumns = 8

    init(traceCount: Int, seed: UInt64) {
        shuffle = TraceShuffle(count: traceCount, seed: seed)
    }

    var needsReset: Bool { phase != .deciding }

    /// Whether the slot has never been reset, so holds no session yet.
    var isIdle: Bool { phase == .idle }

    /// Why this slot cannot step now; nil when it can.
    var whyNotStepping: String? {
        switch phase {
        case .idle: "step before reset: call reset() first"
        case .ended: "the episode has ended: call reset() before stepping again"
        case .deciding: nil
        }
    }

    /// Starts a session over trace `trace` and runs it to its first decision.
    mutating func reset(_ configuration: EnvConfiguration, trace: Int) throws(EnvError) {
        phase = .ended
        traceIndex = trace
        sessionSeed = configuration.sessionSeed(trace: trace)
        state = PensieveState(columns: Self.stateColumns)
        previousLevel = nil
        delivered = 0
        steps = 0
        do {
            session = try StreamingSession(
                emulator: configuration.emulator, strategyID: configuration.strategyID, trace: configuration.traces[trace],
                video: configuration.video, seed: sessionSeed
            )
        } catch {
            session = nil
            throw EnvError(error, strategyID: configuration.strategyID, trace: configuration.traces[trace].name)
        }
        let info = session!.info
        segmentCount = info.segmentCount
        if !configuration.experts.isEmpty { experts.start(configuration.experts, info: info) }
        if try advance(configuration, recordsState: true) != nil {
            let name = configuration.traces[trace].name
            throw .emulation("\(name): the session ended before its first decision", cause: "session", trace: name)
        }
        // A first segment the settings played (first_level) is the level the first step's
        // smoothness penalty measures from, as in compare, and its score comes with that step.
        startScore = 0
        if let first = session!.segments.last {
            previousLevel = first.level
            if case .perSegment(let model) = configuration.scoring {
                startScore = model.segmentScore(level: first.level, previousLevel: nil, rebufferSeconds: first.rebufferSeconds, ladder: configuration.ladder)
            }
        }
        phase = .deciding
    }

    /// Plays `level` (0-based) for the next segment and runs to the next decision or the end;
    /// writes the step's record (``EnvFields/record``) at `record` when given. The episode is
    /// truncated (and ends) at its `maxSteps`th step unless the session ended there.
    mutating func step(
        _ configuration: EnvConfiguration, level: Int, maxSteps: Int?, recordsState: Bool, record: UnsafeMutablePointer<Double>?
    ) throws(EnvError) -> EnvStep {
        if let reason = whyNotStepping { throw .resetNeeded(reason) }
        guard level >= 0, level < configuration.levelCount else {
            throw .invalid("action \(level) is outside the ladder: levels are 0 to \(configuration.levelCount - 1)")
        }
        phase = .ended
        let before = delivered
        do {
            try session!.decide(RequestDecision(level: level))
        } catch {
            throw EnvError(error, strategyID: configuration.strategyID, trace: configuration.traces[traceIndex].name)
        }
        let result = try advance(configuration, recordsState: recordsState)
        steps += 1
        var step = EnvStep(reward: 0, terminated: result != nil)
        // The delivered segment is read in place: a record is too large to copy at every step.
        let segments = delivered > before ? session!.segments : []
        if !segments.isEmpty {
            segments.withUnsafeBufferPointer { rows in
                let row = rows.baseAddress! + (rows.count - 1)
                if case .perSegment(let model) = configuration.scoring {
                    let score = model.segmentScore(
                        level: row.pointee.level, previousLevel: previousLevel, rebufferSeconds: row.pointee.rebufferSeconds,
                        ladder: configuration.ladder
                    )
                    step.reward = score + startScore
                    step.segmentScore = score
                    startScore = 0
                }
                previousLevel = row.pointee.level
            }
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
                let name = configuration.traces[traceIndex].name
                throw .emulation("\(name): the QoE model failed: \(error)", cause: "qoe", trace: name)
            }
        } else if let maxSteps, steps >= maxSteps {
            step.truncated = true
        } else {
            phase = .deciding
        }
        if let record {
            let buffer = bufferSeconds
            segments.withUnsafeBufferPointer { rows in
                EnvFields.write(rows.isEmpty ? nil : rows.baseAddress! + (rows.count - 1), step: step, bufferSeconds: buffer, to: record)
            }
        }
        return step
    }

    /// Runs the session to its next decision (nil) or its end (the result), answering every
    /// abandonment check with "go on" and recording each delivered segment in the state.
    private mutating func advance(_ configuration: EnvConfiguration, recordsState: Bool) throws(EnvError) -> SessionResult? {
        let video = configuration.video
        let topKbps = configuration.topKbps
        let hearsExperts = !experts.isEmpty
        var running = session.take()!
        defer { session = running }
        do {
            while true {
                let step = try running.next()
                if hearsExperts { experts.hear(step, context: running.context) }
                switch step {
                case .decide: return nil
                case .checkAbandonment: try running.answer(.goOn)
                case .waited, .network: continue
                case .downloaded(let download):
                    guard !download.abandoned, !download.isReplacement else { continue }
                    delivered += 1
                    if recordsState {
                        state.record(download, nextSegment: running.segmentIndex, segmentCount: segmentCount, video: video, topKbps: topKbps)
                    }
                case .finished(let result): return result
                }
            }
        } catch {
            throw EnvError(error, strategyID: configuration.strategyID, trace: configuration.traces[traceIndex].name)
        }
    }

    /// Writes the observations: the Pensieve state as float32 at `state`, the context at
    /// `context`; either may be nil.
    func observe(state out: UnsafeMutablePointer<Float>?, context: UnsafeMutablePointer<Double>?) {
        if let out {
            state.cells.withUnsafeBufferPointer { cells in
                for index in 0..<cells.count { out[index] = Float(cells[index]) }
            }
        }
        if let context, let current = session?.context { EnvFields.write(current, to: context) }
    }

    /// The buffer the next decision sees, seconds; NaN before the first reset.
    var bufferSeconds: Double { session?.bufferSeconds ?? .nan }
}
