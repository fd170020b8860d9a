/// Sharing a link (``LinkGroup``): the transfer in its data phase — plain, or in progress steps
/// with abandonment checks between them — walks the trace at the share the group gives it, with
/// the arithmetic of the single session's walk.
extension SegmentBufferModel {
    static var sharesLink: Bool { true }

    mutating func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        try limits.walk { () throws(TraceWalkStop) in try link.join(atMilliseconds: seconds * 1000) }
    }

    func secondsToNextTransferEvent(fraction: Double) -> Double {
        switch phase {
        case .transferring(_, let transfer):
            return link.millisecondsToNextEvent(of: transfer, fraction: fraction) / 1000
        case .progressing(let request, let inFlight):
            return link.millisecondsToNextEvent(of: inFlight ?? nextProgressStep(request), fraction: fraction) / 1000
        case .ending:
            return 0
        case .idle, .checking, .done:
            preconditionFailure("no transfer in its data phase")
        }
    }

    mutating func stepShared(_ recorder: inout SessionRecorder, move: LinkShareMove) throws(EmulationError) -> PlayerStep? {
        let current = phase
        switch current {
        case .transferring(var request, var transfer):
            switch move {
            case .advance(let seconds, let fraction):
                link.advance(&transfer, milliseconds: seconds * 1000, fraction: fraction)
                phase = .transferring(request, transfer)
                return nil
            case .toNextEvent(let fraction):
                guard let ms = try limits.walk({ () throws(TraceWalkStop) in try link.step(&transfer, fraction: fraction) }) else {
                    phase = .transferring(request, transfer)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.ttfbMs + transfer.elapsedMs) / 1000))
                }
                request.downloadMs = request.ttfbMs + ms
                request.receivedBits = request.sizeBits
                return try end(request, recorder: &recorder, events: true)
            }
        case .progressing(var request, let inFlight):
            var walk: NetworkLink.ProgressStep
            if let inFlight {
                walk = inFlight
            } else {
                try spendStep()
                walk = nextProgressStep(request)
            }
            switch move {
            case .advance(let seconds, let fraction):
                link.advance(&walk, milliseconds: seconds * 1000, fraction: fraction)
                phase = .progressing(request, walk)
                return nil
            case .toNextEvent(let fraction):
                guard let step = try limits.walk({ () throws(TraceWalkStop) in try link.step(&walk, fraction: fraction) }) else {
                    phase = .progressing(request, walk)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.downloadMs + walk.ms) / 1000))
                }
                return try finishProgressStep(&request, step, recorder: &recorder, events: true)
            }
        case .ending(let request):
            return try end(request, recorder: &recorder, events: true)
        case .idle, .checking, .done:
            preconditionFailure("no transfer in its data phase")
        }
    }

    /// The progress step that follows the last one of `request`.
    private func nextProgressStep(_ request: Request) -> NetworkLink.ProgressStep {
        NetworkLink.ProgressStep(restBits: request.sizeBits - request.receivedBits, minBits: Self.progressStepBits, minMs: request.minMs)
    }
}
