/// The whole-transfer mechanics (`pensieve`, `default`): each request is one transfer walked over
/// the trace with ``TraceCursor``, and the buffer is one number that drains while it runs.
///
/// Times are combined in the order of Pensieve's `fixed_env.py`, so the `pensieve` profile
/// reproduces its numbers exactly.
struct WholeTransferModel: PlayerModel {
    static var kind: PlayerModelKind { .wholeTransfers }

    /// A request between its start and its transfer's end.
    private struct Request {
        let segment: Int
        let level: Int
        let sizeBytes: Int
        let latencySeconds: Double
        let latencyMs: Double
        var download: TraceCursor.Download
        /// Network events told so far: the request's start, then its first byte.
        var told = 0
    }

    private enum Phase {
        case idle
        case transferring(Request)
        /// The transfer ended, was recorded and told as an event; the request is done.
        case delivered
    }

    let settings: WholeTransferSettings
    let video: Video
    let limits: SessionLimits
    let segmentCount: Int
    let segmentMs: Double
    let maxBufferMs: Double
    let startupThresholdMs: Double

    private var cursor: TraceCursor
    private(set) var bufferMs = 0.0
    private var elapsedMs = 0.0
    private var playing = false
    private var phase = Phase.idle

    init(settings: WholeTransferSettings, setup: SessionSetup) {
        self.settings = settings
        video = setup.video
        limits = setup.limits
        segmentCount = setup.segmentCount
        segmentMs = video.segmentDurationSeconds * 1000
        maxBufferMs = setup.profile.maxBufferSeconds * 1000
        startupThresholdMs = min(settings.startupThresholdSeconds, setup.profile.maxBufferSeconds) * 1000
        cursor = TraceCursor(trace: setup.trace, stepLimit: setup.profile.maxSessionSteps)
    }

    var nowMs: Double { elapsedMs }

    mutating func spendStep() throws(EmulationError) {
        do { try cursor.spendStep() } catch { throw limits.error(error) }
    }

    mutating func begin(segment: Int, decision: RequestDecision, recorder: inout SessionRecorder) throws(EmulationError) {
        if decision.delaySeconds > 0 { try idle(milliseconds: decision.delaySeconds * 1000, recorder: &recorder) }
        let sizeBytes = video.sizeBytes(segment: segment, level: decision.level)
        let latencySeconds: Double
        switch settings.latency {
        case .fixed(let seconds): latencySeconds = seconds
        case .trace(let fallback): latencySeconds = cursor.currentLatencySeconds ?? fallback
        }
        let latencyMs = latencySeconds * 1000
        if settings.latencyConsumesTraceTime { try advanceCursor(milliseconds: latencyMs, fromMs: elapsedMs) }
        let limitSeconds = (limits.maxSessionMs - elapsedMs) / 1000
        phase = .transferring(Request(
            segment: segment, level: decision.level, sizeBytes: sizeBytes, latencySeconds: latencySeconds, latencyMs: latencyMs,
            download: TraceCursor.Download(sizeBytes: Double(sizeBytes), payloadFraction: settings.payloadFraction, limitSeconds: limitSeconds)
        ))
    }

    mutating func step(_ recorder: inout SessionRecorder, events: Bool) throws(EmulationError) -> PlayerStep {
        switch phase {
        case .idle:
            preconditionFailure("no request under way")
        case .delivered:
            phase = .idle
            return .done(delivered: true)
        case .transferring(var request):
            if events, request.told < 2 {
                request.told += 1
                phase = .transferring(request)
                let kind: NetworkEvent.Kind = request.told == 1 ? .requestStart : .firstByte
                return .event(NetworkEvent(kind: kind, seconds: (elapsedMs + (request.told == 1 ? 0 : request.latencyMs)) / 1000))
            }
            while true {
                let ended = try limits.walk { () throws(TraceWalkStop) in try cursor.step(&request.download) }
                if let transferSeconds = ended {
                    let endMs = elapsedMs + transferSeconds * 1000 + request.latencyMs
                    try complete(request, transferSeconds: transferSeconds, recorder: &recorder)
                    guard events else {
                        phase = .idle
                        return .done(delivered: true)
                    }
                    phase = .delivered
                    return .event(NetworkEvent(kind: .transferEnd, seconds: endMs / 1000))
                }
                if events {
                    phase = .transferring(request)
                    let seconds = (elapsedMs + request.latencyMs) / 1000 + request.download.delaySeconds
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: seconds))
                }
            }
        }
    }

    /// The transfer ended after `transferSeconds`: the buffer plays out the delay, the player
    /// starts or stalls, waits on a full buffer, and the request is recorded.
    private mutating func complete(_ request: Request, transferSeconds: Double, recorder: inout SessionRecorder) throws(EmulationError) {
        let delayMs = transferSeconds * 1000 + request.latencyMs
        let startMs = elapsedMs
        let bufferBeforeMs = bufferMs
        var segmentRebufferMs = recorder.unattributedStallMs
        recorder.unattributedStallMs = 0

        if playing {
            let stall = max(delayMs - bufferMs, 0)
            if stall > 0 { recorder.stall(fromMs: startMs + bufferMs, toMs: startMs + delayMs, milliseconds: stall) }
            segmentRebufferMs += stall
            bufferMs = max(bufferMs - delayMs, 0) + segmentMs
        } else {
            recorder.startupMs += delayMs
            bufferMs += segmentMs
            if bufferMs >= startupThresholdMs || request.segment == segmentCount - 1 {
                playing = true
                recorder.startPlayback(atMs: startMs + delayMs)
                if settings.startupCountsAsRebuffer { segmentRebufferMs = recorder.startupMs }
            }
        }
        recorder.rebufferMs += segmentRebufferMs
        elapsedMs += delayMs
        guard elapsedMs <= limits.maxSessionMs else { throw limits.timeLimit }
        recorder.recordSeedSample(bytes: request.sizeBytes, durationSeconds: delayMs / 1000, atSeconds: elapsedMs / 1000)
        let endMs = elapsedMs
        if recorder.keepsThroughputEstimate {
            recorder.sampleThroughput(
                transferMs: transferSeconds * 1000, bits: Double(request.sizeBytes) * 8, latencyMs: request.latencyMs,
                first: request.segment == 0, keep: true
            )
        }

        var waitMs = 0.0
        if playing, bufferMs > maxBufferMs {
            let excessMs = bufferMs - maxBufferMs
            let stepMs = settings.bufferWaitStepSeconds * 1000
            waitMs = stepMs > 0 ? (excessMs / stepMs).rounded(.up) * stepMs : excessMs
            bufferMs -= waitMs
            try advanceCursor(milliseconds: waitMs, fromMs: elapsedMs)
            elapsedMs += waitMs
        }
        recorder.updateEstimate(atSeconds: elapsedMs / 1000)

        let downloadSeconds = delayMs / 1000
        let download = DownloadRecord(
            segmentIndex: request.segment, level: request.level, sizeBytes: request.sizeBytes, downloadTimeSeconds: downloadSeconds,
            throughputKbps: Double(request.sizeBytes) * 8 / downloadSeconds / 1000, rebufferSeconds: segmentRebufferMs / 1000,
            bufferSeconds: bufferMs / 1000, waitSeconds: waitMs / 1000, latencySeconds: request.latencySeconds
        )
        recorder.record(download, wastedBytes: 0, delivery: SessionRecorder.Delivery(
            startSeconds: startMs / 1000, endSeconds: endMs / 1000, bufferBeforeSeconds: bufferBeforeMs / 1000
        ))
    }

    /// A strategy's idle delay: the buffer drains (a stall when it runs dry) while the trace moves on.
    private mutating func idle(milliseconds: Double, recorder: inout SessionRecorder) throws(EmulationError) {
        guard elapsedMs + milliseconds <= limits.maxSessionMs else { throw limits.timeLimit }
        if playing {
            let stall = max(milliseconds - bufferMs, 0)
            if stall > 0 {
                recorder.stall(fromMs: elapsedMs + bufferMs, toMs: elapsedMs + milliseconds, milliseconds: stall)
                recorder.unattributedStallMs += stall
            }
            bufferMs = max(bufferMs - milliseconds, 0)
        } else {
            recorder.startupMs += milliseconds
        }
        try advanceCursor(milliseconds: milliseconds, fromMs: elapsedMs)
        elapsedMs += milliseconds
    }

    /// Lets `milliseconds` pass on the trace, from `fromMs` into the session; a wait past the
    /// session's time limit is its error before the trace is walked (a latency of 1e300 s would
    /// never shrink by a period's length).
    private mutating func advanceCursor(milliseconds: Double, fromMs: Double) throws(EmulationError) {
        guard fromMs + milliseconds <= limits.maxSessionMs else { throw limits.timeLimit }
        do { try cursor.advance(milliseconds: milliseconds) } catch { throw limits.error(error) }
    }

    mutating func finish(_ recorder: inout SessionRecorder, traceName: String, profileName: String) -> SessionResult {
        let endMs = elapsedMs + bufferMs
        let summary = recorder.playbackSummary(endMs: endMs, playedInDownloadOrder: true)
        return recorder.finish(endMs: endMs, traceName: traceName, profileName: profileName, summary: summary)
    }
}

/// Sharing a link (``LinkGroup``): the transfer in its data phase walks the trace at the share
/// the group gives it, with the arithmetic of the single session's walk.
extension WholeTransferModel: SharedLinkModel {
    mutating func joinLink(atSeconds seconds: Double) throws(EmulationError) {
        do { try cursor.advance(milliseconds: seconds * 1000) } catch { throw limits.error(error) }
    }

    mutating func stepShared(_ recorder: inout SessionRecorder, move: LinkShareMove) throws(EmulationError) -> SharedStep? {
        guard case .transferring(var request) = phase, request.told == 2 else { preconditionFailure("no transfer in its data phase") }
        switch move {
        case .advance(let seconds, let fraction):
            try limits.walk { () throws(TraceWalkStop) in try cursor.advance(&request.download, seconds: seconds, fraction: fraction) }
            phase = .transferring(request)
            return nil
        case .toNextEvent(let fraction):
            let ended = try limits.walk { () throws(TraceWalkStop) in try cursor.step(&request.download, fraction: fraction) }
            guard let transferSeconds = ended else {
                phase = .transferring(request)
                return .event(NetworkEvent(kind: .periodBoundary, seconds: (elapsedMs + request.latencyMs) / 1000 + request.download.delaySeconds))
            }
            let endMs = elapsedMs + transferSeconds * 1000 + request.latencyMs
            try complete(request, transferSeconds: transferSeconds, recorder: &recorder)
            phase = .delivered
            return .event(NetworkEvent(kind: .transferEnd, seconds: endMs / 1000))
        }
    }

    /// The walk runs on a copy of the request, written back only when kept; a dry run puts the
    /// cursor back where it stood.
    mutating func walkSharedQuietly(
        _ steps: Int, fraction: Double, seconds: inout Double, through limitSeconds: Double, keep: Bool
    ) -> (walked: Int, loudSeconds: Double?) {
        guard case .transferring(var request) = phase, request.told == 2 else { preconditionFailure("no transfer in its data phase") }
        let position = cursor.position
        defer { if keep { phase = .transferring(request) } else { cursor.restore(position) } }
        for walked in 0..<steps {
            let next = seconds + cursor.secondsToNextEvent(of: request.download, fraction: fraction)
            guard next <= limitSeconds else { return (walked, nil) }
            var download = request.download
            do {
                guard try cursor.step(&download, fraction: fraction) == nil else { return (walked, next) }
            } catch {
                return (walked, next)
            }
            request.download = download
            seconds = next
        }
        return (steps, nil)
    }
}
