/// A request on the segment buffer, stepped: the transfer (in progress steps with abandonment
/// checks after the first segment), then the buffer plays out its time and it is recorded.
extension SegmentBufferModel {
    mutating func step(_ recorder: inout SessionRecorder, events: Bool) throws(EmulationError) -> PlayerStep {
        let current = phase
        phase = .idle
        switch current {
        case .idle, .checking:
            preconditionFailure("no request under way")
        case .done(let delivered):
            return .done(delivered: delivered)
        case .ending:
            return try end(recorder: &recorder, events: events)
        case .transferring(var transfer):
            if events, let event = tell() {
                phase = .transferring(transfer)
                return .event(event)
            }
            while true {
                if let ms = try limits.walk({ () throws(TraceWalkStop) in try link.step(&transfer) }) {
                    request.downloadMs = request.ttfbMs + ms
                    request.receivedBits = request.sizeBits
                    return try end(recorder: &recorder, events: events)
                }
                if events {
                    phase = .transferring(transfer)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.ttfbMs + transfer.elapsedMs) / 1000))
                }
            }
        case .progressing(let inFlight):
            if events, let event = tell() {
                phase = .progressing(inFlight)
                return .event(event)
            }
            return try progress(inFlight, recorder: &recorder, events: events)
        }
    }

    /// The request's start, then its first byte, once each when stepping event by event.
    private mutating func tell() -> NetworkEvent? {
        guard request.told < 2 else { return nil }
        request.told += 1
        return request.told == 1
            ? NetworkEvent(kind: .requestStart, seconds: request.startMs / 1000)
            : NetworkEvent(kind: .firstByte, seconds: (request.startMs + request.ttfbMs) / 1000)
    }

    /// Progress steps until a check is due, the segment has arrived, or a replacement can no
    /// longer arrive in time.
    private mutating func progress(
        _ inFlight: NetworkLink.ProgressStep?, recorder: inout SessionRecorder, events: Bool
    ) throws(EmulationError) -> PlayerStep {
        var inFlight = inFlight
        while true {
            var walk: NetworkLink.ProgressStep
            if let inFlight {
                walk = inFlight
            } else {
                try spendStep()
                walk = Self.nextProgressStep(after: request)
            }
            guard let step = try limits.walk({ () throws(TraceWalkStop) in try link.step(&walk) }) else {
                if events {
                    phase = .progressing(walk)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: (request.startMs + request.downloadMs + walk.ms) / 1000))
                }
                inFlight = walk
                continue
            }
            inFlight = nil
            if let stop = try finishProgressStep(step, recorder: &recorder, events: events) { return stop }
        }
    }

    /// The progress step that follows the last one of `request`.
    static func nextProgressStep(after request: Request) -> NetworkLink.ProgressStep {
        NetworkLink.ProgressStep(restBits: request.sizeBits - request.receivedBits, minBits: Self.progressStepBits, minMs: request.minMs)
    }

    /// What the end of a progress step leads to.
    enum ProgressStepEnd {
        /// The segment has arrived.
        case arrived
        /// A replacement can no longer arrive in time.
        case tooLate
        /// An abandonment check is due.
        case check(DownloadProgress)
        /// The next progress step.
        case next
    }

    /// A progress step moved `step.bits` in `step.ms`: counts it into `request` and says what
    /// follows. Static, so the model's own ``request`` is changed in place, or a copy of it.
    @inline(__always)
    static func endProgressStep(
        _ request: inout Request, _ step: (bits: Double, ms: Double), settings: SegmentBufferSettings, limits: SessionLimits, segmentMs: Double
    ) throws(EmulationError) -> ProgressStepEnd {
        request.minMs = Self.progressStepMs
        request.receivedBits += step.bits
        request.downloadMs += step.ms
        if request.downloadMs > limits.maxSessionMs { throw limits.timeLimit }
        guard request.receivedBits < request.sizeBits else { return .arrived }
        if let offset = request.replaceOffset {
            return max(0, request.bufferAtStartMs - request.downloadMs) + segmentMs * Double(offset) <= 0 ? .tooLate : .next
        }
        let elapsedSeconds = request.downloadMs / 1000
        if settings.honoursRechecks, !request.recheck.isDue(afterSeconds: elapsedSeconds) { return .next }
        let progress = DownloadProgress(
            segmentIndex: request.target, level: request.level, sizeBytes: request.sizeBits / 8,
            receivedBytes: request.receivedBits / 8, elapsedSeconds: elapsedSeconds,
            timeToFirstByteSeconds: request.ttfbMs / 1000,
            bufferSeconds: max(0, request.bufferAtStartMs - request.downloadMs) / 1000
        )
        return !settings.honoursRechecks || request.recheck.isDue(progress) ? .check(progress) : .next
    }

    /// A progress step moved `step.bits` in `step.ms`: the segment has arrived, a replacement can
    /// no longer arrive in time, an abandonment check is due, or (when stepping event by event)
    /// the step's end is told; `nil` goes on to the next step.
    @inline(__always)
    mutating func finishProgressStep(
        _ step: (bits: Double, ms: Double), recorder: inout SessionRecorder, events: Bool
    ) throws(EmulationError) -> PlayerStep? {
        if events { return PlayerStep(try finishToldProgressStep(step, recorder: &recorder)) }
        switch try Self.endProgressStep(&request, step, settings: settings, limits: limits, segmentMs: segmentMs) {
        case .arrived:
            return .done(delivered: try record(&recorder))
        case .tooLate:
            request.abandoned = true
            return .done(delivered: try record(&recorder))
        case .check(let progress):
            phase = .checking
            return .check(progress)
        case .next:
            return nil
        }
    }

    /// ``finishProgressStep(_:recorder:events:)`` event by event, as a shared link always steps:
    /// the request's end and each progress step's end are told.
    @inline(__always)
    mutating func finishToldProgressStep(_ step: (bits: Double, ms: Double), recorder: inout SessionRecorder) throws(EmulationError) -> SharedStep {
        switch try Self.endProgressStep(&request, step, settings: settings, limits: limits, segmentMs: segmentMs) {
        case .arrived:
            return .event(try endTold(&recorder))
        case .tooLate:
            request.abandoned = true
            return .event(try endTold(&recorder))
        case .check(let progress):
            phase = .checking
            return .check(progress)
        case .next:
            phase = .progressing(nil)
            return .event(NetworkEvent(kind: .progressCheck, seconds: (request.startMs + request.downloadMs) / 1000))
        }
    }

    /// The transfer ended or was abandoned: recorded (``record(_:)``), then done, or told as the
    /// transfer's end when stepping event by event.
    mutating func end(recorder: inout SessionRecorder, events: Bool) throws(EmulationError) -> PlayerStep {
        events ? .event(try endTold(&recorder)) : .done(delivered: try record(&recorder))
    }

    /// The transfer ended or was abandoned: recorded, and told as the transfer's end; the
    /// request is done once told.
    mutating func endTold(_ recorder: inout SessionRecorder) throws(EmulationError) -> NetworkEvent {
        phase = .done(delivered: try record(&recorder))
        return NetworkEvent(kind: .transferEnd, seconds: buffer.playTimeMs / 1000)
    }

    /// The transfer ended or was abandoned: the buffer plays out its time, a delivered segment is
    /// appended (or replaces a buffered one), playback starts with the first, and the request is
    /// recorded. Returns whether the segment was delivered.
    private mutating func record(_ recorder: inout SessionRecorder) throws(EmulationError) -> Bool {
        // A copy, once a request: the buffer and the recorder change below while it is read.
        let request = request
        advertise()
        if request.first {
            buffer.addStartup(milliseconds: request.downloadMs)
            recorder.startupMs = buffer.playTimeMs
        } else {
            drain(request.downloadMs, recorder: &recorder)
        }
        guard buffer.playTimeMs <= limits.maxSessionMs else { throw limits.timeLimit }

        var delivered = false
        if !request.abandoned {
            if let offset = request.replaceOffset {
                if buffer.bufferedMs + segmentMs * Double(offset) >= 0 {
                    let previous = buffer.level(fromEnd: offset)
                    buffer.replace(fromEnd: offset, level: request.level)
                    recorder.noteReplacement(segment: request.target, from: previous, to: request.level)
                }
            } else {
                buffer.append(level: request.level)
                delivered = true
            }
            if stalled {
                stalled = false
                recorder.send(.didFinishBuffering, atMs: buffer.playTimeMs)
            }
        }
        if request.first, delivered {
            playing = true
            recorder.startPlayback(atMs: buffer.playTimeMs)
        }
        let transferMs = request.downloadMs - request.ttfbMs
        recorder.sampleThroughput(
            transferMs: transferMs, bits: request.receivedBits, latencyMs: request.ttfbMs, first: request.first, keep: !request.abandoned
        )

        let sizeBytes = video.sizeBytes(segment: request.target, level: request.level)
        let nowMs = buffer.playTimeMs
        let download = DownloadRecord(
            segmentIndex: request.target, level: request.level, sizeBytes: sizeBytes,
            downloadTimeSeconds: request.downloadMs / 1000, throughputKbps: request.receivedBits / request.downloadMs,
            rebufferSeconds: delivered ? recorder.unattributedStallMs / 1000 : 0, bufferSeconds: buffer.bufferedMs / 1000,
            waitSeconds: 0, abandoned: request.abandoned, abandonedToLevel: request.abandonedTo,
            isReplacement: request.replaceOffset != nil, latencySeconds: request.ttfbMs / 1000, receivedBytes: request.receivedBits / 8
        )
        if !request.abandoned {
            recorder.recordSeedSample(bytes: sizeBytes, durationSeconds: download.downloadTimeSeconds, atSeconds: nowMs / 1000)
            recorder.updateEstimate(atSeconds: nowMs / 1000)
        }
        recorder.record(download, wastedBytes: request.abandoned ? request.receivedBits / 8 : 0, delivery: delivered ? SessionRecorder.Delivery(
            startSeconds: request.startMs / 1000, endSeconds: nowMs / 1000, bufferBeforeSeconds: request.bufferAtStartMs / 1000
        ) : nil)
        if delivered { recorder.unattributedStallMs = 0 }
        return delivered
    }
}
