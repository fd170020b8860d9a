/// The batch path: a strategy answers every point the engine stops at, in the order its hooks
/// promise (``SessionStrategy``).
extension SessionEngine {
    /// Plays the session to its end with `strategy`, which must be fresh for it. Inlined where
    /// the model is known, so the engine's steps are specialised for it while the strategy
    /// stays generic (a function generic over both would run the engine unspecialised).
    @inline(__always)
    mutating func run<Strategy: SessionStrategy>(_ strategy: inout Strategy) throws(EmulationError) -> SessionResult {
        do { try strategy.setUp(info) } catch { throw Self.strategyError(error, segment: nil, trace: traceName) }
        if strategy.updatesPlayback { enablePlaybackUpdates() }
        // One context for the session, brought up to date after each request, wait or check:
        // it goes to `didDownload` and then to the next decision. Its history is dropped before
        // the next request so the recorder extends the history in place instead of copying it.
        var context = self.context()
        while true {
            let point: EnginePoint
            do { point = try advance(events: false) } catch {
                if case .abandonmentLimit(_, let segment, let trace) = error {
                    throw .abandonmentLimit(check: strategy.abandonmentCheckLocation() ?? strategyID, segment: segment, trace: trace)
                }
                throw error
            }
            switch point {
            case .decide:
                let decision: RequestDecision
                do { decision = try strategy.decide(context) } catch {
                    throw Self.strategyError(error, segment: segmentIndex, trace: traceName)
                }
                context.downloads = []
                try decide(decision)
            case .check(let progress):
                let answer: AbandonmentAnswer
                do { answer = try strategy.answerAbandonment(progress) } catch {
                    throw Self.strategyError(error, segment: progress.segmentIndex, trace: traceName)
                }
                try self.answer(answer)
            case .waited(let milliseconds):
                refresh(&context)
                do { try strategy.didWait(seconds: milliseconds / 1000, context: context) } catch {
                    throw Self.strategyError(error, segment: segmentIndex, trace: traceName)
                }
            case .downloaded:
                let download = lastDownload
                refresh(&context)
                do { try strategy.didDownload(download, context: context) } catch {
                    throw Self.strategyError(error, segment: requestedIndex, trace: traceName)
                }
            case .playback(let update):
                let rate: Double?
                do { rate = try strategy.playbackDidUpdate(update) } catch {
                    throw Self.strategyError(error, segment: update.segmentIndex, trace: traceName)
                }
                if let rate { try setPlaybackRate(rate, at: update) }
            case .event:
                continue
            case .finished:
                return result
            }
        }
    }

    /// A strategy's error, with the segment (1-based, as in every output) and trace it happened on.
    static func strategyError(_ error: any Error, segment: Int?, trace: String) -> EmulationError {
        if let emulation = error as? EmulationError { return emulation }
        let place = segment.map { "segment \($0 + 1) of \(trace)" } ?? "setting up \(trace)"
        return .strategyFailed(message: "\(String(describing: error)) (\(place))")
    }
}
