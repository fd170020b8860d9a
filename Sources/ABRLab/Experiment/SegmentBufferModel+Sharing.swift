/// Sharing a link (``LinkGroup``): the transfer in its data phase — plain, or in progress steps
/// with abandonment checks between them — walks the trace at the share the group gives it, with
/// the arithmetic of the single session's walk.
extension SegmentBufferModel: SharedLinkModel {
    mutating func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        try limits.walk { () throws(TraceWalkStop) in try link.join(atMilliseconds: seconds * 1000) }
    }

    mutating func stepShared(_ recorder: inout SessionRecorder, move: LinkShareMove) throws(EmulationError) -> SharedStep? {
        switch phase {
        case .transferring(var transfer):
            switch move {
            case .advance(let seconds, let fraction):
                link.advance(&transfer, milliseconds: seconds * 1000, fraction: fraction)
                phase = .transferring(transfer)
                return nil
            case .toNextEvent(let fraction):
                guard let ms = try limits.walk({ () throws(TraceWalkStop) in try link.step(&transfer, fraction: fraction) }) else {
                    phase = .transferring(transfer)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.ttfbMs + transfer.elapsedMs) / 1000))
                }
                request.downloadMs = request.ttfbMs + ms
                request.receivedBits = request.sizeBits
                return .event(try endTold(&recorder))
            }
        case .progressing(let inFlight):
            var walk: NetworkLink.ProgressStep
            if let inFlight {
                walk = inFlight
            } else {
                try spendStep()
                walk = Self.nextProgressStep(after: request)
            }
            switch move {
            case .advance(let seconds, let fraction):
                link.advance(&walk, milliseconds: seconds * 1000, fraction: fraction)
                phase = .progressing(walk)
                return nil
            case .toNextEvent(let fraction):
                guard let step = try limits.walk({ () throws(TraceWalkStop) in try link.step(&walk, fraction: fraction) }) else {
                    phase = .progressing(walk)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.downloadMs + walk.ms) / 1000))
                }
                return try finishToldProgressStep(step, recorder: &recorder)
            }
        case .ending:
            return .event(try endTold(&recorder))
        case .idle, .checking, .done:
            preconditionFailure("no transfer in its data phase")
        }
    }

    /// The walk runs on copies of the request, written back only when kept; a dry run puts the
    /// link back where it stood, as the walk may have moved it part of the way into a loud event.
    mutating func walkSharedQuietly(
        _ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double, keep: Bool
    ) -> (walked: Int, loudSeconds: Double?) {
        let position = link.position
        defer { if !keep { link.restore(position) } }
        var walked = 0
        switch phase {
        case .transferring(var transfer):
            defer { if keep { phase = .transferring(transfer) } }
            while walked < steps {
                let next = seconds + link.millisecondsToNextEvent(of: transfer, fraction: fraction) / 1000
                guard next <= limitSeconds else { break }
                var moved = transfer
                do {
                    guard try link.step(&moved, fraction: fraction) == nil else { return (walked, next) }
                } catch {
                    return (walked, next)
                }
                transfer = moved
                seconds = next
                walked += 1
            }
        case .progressing(var inFlight):
            var request = request
            defer {
                if keep {
                    self.request = request
                    phase = .progressing(inFlight)
                }
            }
            while walked < steps {
                var walk = inFlight ?? Self.nextProgressStep(after: request)
                let next = seconds + link.millisecondsToNextEvent(of: walk, fraction: fraction) / 1000
                guard next <= limitSeconds else { break }
                if inFlight == nil {
                    do { try link.spendStep() } catch { return (walked, next) }
                }
                let stepped: (bits: Double, ms: Double)?
                do { stepped = try link.step(&walk, fraction: fraction) } catch { return (walked, next) }
                guard let step = stepped else {
                    inFlight = walk
                    seconds = next
                    walked += 1
                    continue
                }
                var ended = request
                do {
                    guard case .next = try Self.endProgressStep(&ended, step, settings: settings, limits: limits, segmentMs: segmentMs) else {
                        return (walked, next)
                    }
                } catch {
                    return (walked, next)
                }
                request = ended
                inFlight = nil
                seconds = next
                walked += 1
            }
        case .ending:
            // The transfer's end is due now.
            return (0, steps > 0 && seconds <= limitSeconds ? seconds : nil)
        case .idle, .checking, .done:
            preconditionFailure("no transfer in its data phase")
        }
        return (walked, nil)
    }
}
