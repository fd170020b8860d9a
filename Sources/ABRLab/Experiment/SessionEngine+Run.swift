/// A strategy answering the engine: every point the engine stops at, in the order its hooks
/// promise (``SessionStrategy``), for the batch path (``run(_:)``) and each player of a shared
/// link (``LinkGroup``) alike.
extension SessionEngine {
    /// Plays the session to its end with `strategy`, which must be fresh for it. Inlined where
    /// the model is known, so the engine's steps are specialised for it while the strategy
    /// stays generic (a function generic over both would run the engine unspecialised).
    @inline(__always)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        try setUp(&strategy)
        // One context for the session, brought up to date after each request, wait or check:
        // it goes to `didDownload` and then to the next decision.
        var context = self.context()
        while case .event = try play(&strategy, context: &context, events: false) {}
        return result
    }

    /// Tells `strategy`, fresh for this session, what it learns once.
    @inline(__always)
    mutating func setUp<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) {
        do { try strategy.setUp(info) } catch { throw Self.strategyError(error, segment: nil, trace: traceName) }
        if strategy.updatesPlayback { enablePlaybackUpdates() }
    }

    /// Answers every point with `strategy` until the session ends or, with `events`, reaches a
    /// network event: the one loop of the batch path and of a player on a shared link
    /// (``LinkGroup``), so both play the same numbers and word a strategy's error alike.
    /// `context` is what the strategy decides on: current at every decision, refreshed after
    /// each wait and request; its history is dropped before each request so the recorder
    /// extends the history in place instead of copying it.
    @inline(__always)
    mutating func play<Strategy: SessionStrategy>(
        _ strategy: inout Strategy, context: inout DecisionContext, events: Bool
    ) throws(EmulationError) -> PlayStop {
        while true {
            let point: EnginePoint
            do { point = try advance(events: events) } catch {
                if case .abandonmentLimit(_, let segment, let trace) = error {
                    throw .abandonmentLimit(check: strategy.abandonmentCheckLocation() ?? strategyID, segment: segment, trace: trace)
                }
                throw error
            }
            switch point {
            case .decide:
                guard case .decision(let decision) = try reply(of: &strategy, to: .decide, context: context, segment: segmentIndex) else { continue }
                context.downloads = []
                try decide(decision)
            case .check(let progress):
                try answer(progress, with: &strategy, context: context)
            case .waited(let milliseconds):
                refresh(&context)
                _ = try reply(of: &strategy, to: .waited(seconds: milliseconds / 1000), context: context, segment: segmentIndex)
            case .downloaded:
                let download = lastDownload
                refresh(&context)
                _ = try reply(of: &strategy, to: .downloaded(download), context: context, segment: requestedIndex)
            case .playback(let update):
                let rate: Double?
                do { rate = try strategy.playbackDidUpdate(update) } catch {
                    throw Self.strategyError(error, segment: update.segmentIndex, trace: traceName)
                }
                if let rate { try setPlaybackRate(rate, at: update) }
                if strategy.takeSeekToLive() { seekToLive() }
            case .event(let event):
                return .event(event)
            case .finished:
                return .finished
            }
        }
    }

    /// Asks `strategy` about the abandonment check the session stopped at and gives its answer.
    @inline(__always)
    mutating func answer<Strategy: SessionStrategy>(
        _ progress: DownloadProgress, with strategy: inout Strategy, context: DecisionContext
    ) throws(EmulationError) {
        let step = SessionStep.checkAbandonment(progress)
        guard case .abandonment(let answer) = try reply(of: &strategy, to: step, context: context, segment: progress.segmentIndex) else { return }
        try self.answer(answer)
    }

    /// What `strategy` replies to `step` (``SessionStrategy/hear(_:context:)``), an error it
    /// throws named with the 0-based `segment` it happened on.
    @inline(__always)
    private func reply<Strategy: SessionStrategy>(
        of strategy: inout Strategy, to step: SessionStep, context: DecisionContext, segment: Int
    ) throws(EmulationError) -> StrategyReply {
        do { return try strategy.hear(step, context: context) } catch {
            throw Self.strategyError(error, segment: segment, trace: traceName)
        }
    }

    /// A strategy's error, with the segment (1-based, as in every output) and trace it happened on.
    static func strategyError(_ error: any Error, segment: Int?, trace: String) -> EmulationError {
        if let emulation = error as? EmulationError { return emulation }
        return .strategyFailed(.threw(error: String(describing: error), segment: segment, trace: trace))
    }
}

/// Where ``SessionEngine/play(_:context:events:)`` hands control back.
enum PlayStop {
    case finished
    /// A network event of the request under way, when asked for.
    case event(NetworkEvent)
}
