/// The live mechanics (`live`): each segment is requested once the encoder starts it, its chunks
/// walked over the trace with ``TraceCursor`` no earlier than they exist, into a ``LivePlayer``
/// that plays at a variable rate behind the moving live edge.
struct LiveStreamModel: PlaysLive {
    static var kind: PlayerModelKind { .live }

    /// A request from its first byte to its last chunk.
    private struct Request {
        let segment: Int
        let level: Int
        let bitrateKbps: Double
        let sizeBytes: Int
        let startSeconds: Double
        let bufferBeforeSeconds: Double
        let latencySeconds: Double
        var chunk = 0
        var productionWaitSeconds = 0.0
        var rebufferSeconds = 0.0
        /// Network events told so far: the request's start, then its first byte.
        var told = 0
    }

    /// The chunk under way: when it became available, its first byte, and its walk.
    private struct Chunk {
        let availableSeconds: Double
        let firstByteSeconds: Double
        let bytes: Int
        var download: TraceCursor.Download
    }

    private enum Phase {
        case idle
        /// A request under way, with the chunk in flight if one is.
        case requesting(Request, Chunk?)
        /// With playback updates: a chunk whose transfer is walked, taking `transferSeconds`,
        /// and the updates that fall before its arrival still to come.
        case arriving(Request, Chunk, transferSeconds: Double)
    }

    let settings: LiveSettings
    let video: Video
    let limits: SessionLimits
    private var cursor: TraceCursor
    private var live: LiveSessionState
    /// Chunks of the segment under way.
    private var chunks: [ChunkRecord] = []
    /// The player's buffer and clock as of the last request's end, as strategies see them.
    private(set) var bufferMs = 0.0
    private(set) var nowMs = 0.0
    private var phase = Phase.idle
    /// Whether the strategy hears playback updates.
    private var reportsPlayback = false
    /// A strategy's catch-up asked to seek to the live edge (dash.js's seek past maxDrift under its own rate).
    private var seekAsked = false

    init(settings: LiveSettings, setup: SessionSetup) {
        self.settings = settings
        video = setup.video
        limits = setup.limits
        cursor = TraceCursor(trace: setup.trace, lead: settings.warmup?.period, stepLimit: setup.profile.maxSessionSteps)
        live = LiveSessionState(
            settings: settings, segmentSeconds: video.segmentDurationSeconds,
            startupThresholdSeconds: settings.startupThresholdSeconds, segmentCount: setup.segmentCount
        )
    }

    mutating func spendStep() throws(EmulationError) {
        do { try cursor.spendStep() } catch { throw limits.error(error) }
    }

    func segment(after segment: Int) -> Int { live.nextSegment }

    func decorate(_ context: inout DecisionContext) {
        context.live = live.state
        context.throughputMethod = .chunk
    }

    /// The strategy's rate takes effect, an optional idle delay, the wait until the segment is
    /// announced, the request latency; the chunks follow in steps.
    mutating func begin(segment: Int, decision: RequestDecision, recorder: inout SessionRecorder) throws(EmulationError) {
        // With playback updates, a decision without a rate leaves the rate to them.
        if !(reportsPlayback && decision.playbackRate == nil) { live.player.strategyRate = decision.playbackRate }
        live.player.updateRate()
        if decision.delaySeconds > 0 { try idle(until: live.player.nowSeconds + decision.delaySeconds) }
        try idle(until: live.availableAt(segment: segment, chunk: 0) - live.chunkSeconds)

        let startSeconds = live.player.nowSeconds
        let bufferBefore = live.player.bufferSeconds
        let latencySeconds: Double
        switch settings.latency {
        case .fixed(let seconds): latencySeconds = seconds
        case .trace(let fallback): latencySeconds = cursor.currentLatencySeconds ?? fallback
        }
        if settings.latencyConsumesTraceTime { try advanceCursor(milliseconds: latencySeconds * 1000, fromMs: startSeconds * 1000) }
        live.player.advance(to: startSeconds + latencySeconds)
        chunks = []
        chunks.reserveCapacity(live.chunksPerSegment)
        phase = .requesting(Request(
            segment: segment, level: decision.level, bitrateKbps: video.ladder[decision.level].bitrateKbps,
            sizeBytes: video.sizeBytes(segment: segment, level: decision.level), startSeconds: startSeconds,
            bufferBeforeSeconds: bufferBefore, latencySeconds: latencySeconds
        ), nil)
    }

    /// Chunk by chunk: wait for the encoder when the chunk does not exist yet, transfer it over
    /// the trace, append it to the buffer.
    mutating func step(_ recorder: inout SessionRecorder, events: Bool) throws(EmulationError) -> PlayerStep {
        let current = phase
        phase = .idle
        if case .arriving(let request, let chunk, let transfer) = current { return try arriving(request, chunk, transferSeconds: transfer) }
        guard case .requesting(var request, var inFlight) = current else { preconditionFailure("no request under way") }
        if events, request.told < 2 {
            request.told += 1
            phase = .requesting(request, inFlight)
            let seconds = request.told == 1 ? request.startSeconds : request.startSeconds + request.latencySeconds
            return .event(NetworkEvent(kind: request.told == 1 ? .requestStart : .firstByte, seconds: seconds))
        }
        while true {
            var chunk: Chunk
            if let inFlight {
                chunk = inFlight
            } else {
                guard request.chunk < live.chunksPerSegment else { break }
                try spendStep()
                let available = live.availableAt(segment: request.segment, chunk: request.chunk)
                if live.player.nowSeconds < available {
                    request.productionWaitSeconds += available - live.player.nowSeconds
                    try idle(until: available)
                }
                let firstByte = live.player.nowSeconds
                let base = request.sizeBytes / live.chunksPerSegment
                let bytes = base + (request.chunk < request.sizeBytes % live.chunksPerSegment ? 1 : 0)
                chunk = Chunk(
                    availableSeconds: available, firstByteSeconds: firstByte, bytes: bytes,
                    download: TraceCursor.Download(
                        sizeBytes: Double(bytes), payloadFraction: settings.payloadFraction, limitSeconds: limits.maxSessionSeconds - firstByte
                    )
                )
            }
            guard let transfer = try limits.walk({ () throws(TraceWalkStop) in try cursor.step(&chunk.download) }) else {
                inFlight = chunk
                if events {
                    phase = .requesting(request, chunk)
                    return .event(NetworkEvent(kind: .periodBoundary, seconds: chunk.firstByteSeconds + chunk.download.delaySeconds))
                }
                continue
            }
            inFlight = nil
            if reportsPlayback { return try arriving(request, chunk, transferSeconds: transfer) }
            try arrive(chunk, transferSeconds: transfer, request: &request)
            if events {
                phase = .requesting(request, nil)
                return .event(NetworkEvent(kind: .transferEnd, seconds: live.player.nowSeconds))
            }
        }
        complete(request, recorder: &recorder)
        return .done(delivered: true)
    }

    mutating func enablePlaybackUpdates() { reportsPlayback = true }

    /// The strategy's rate holds until its next update or decision.
    mutating func setPlaybackRate(_ rate: Double) {
        live.player.strategyRate = rate
        live.player.updateRate()
    }

    mutating func seekToLive() { seekAsked = true }

    /// A chunk on its way with playback updates on: the next tick before its arrival (every
    /// chunk duration of session time), else its arrival; either is a playback update.
    private mutating func arriving(_ request: Request, _ chunk: Chunk, transferSeconds: Double) throws(EmulationError) -> PlayerStep {
        var request = request
        let arrival = chunk.firstByteSeconds + transferSeconds
        let tick = ((live.player.nowSeconds / live.chunkSeconds + 1e-9).rounded(.down) + 1) * live.chunkSeconds
        if tick < arrival - 1e-9 {
            live.player.advance(to: tick)
            phase = .arriving(request, chunk, transferSeconds: transferSeconds)
            return .playback(playbackUpdate(request))
        }
        try arrive(chunk, transferSeconds: transferSeconds, request: &request)
        phase = .requesting(request, nil)
        return .playback(playbackUpdate(request))
    }

    private func playbackUpdate(_ request: Request) -> PlaybackUpdate {
        let player = live.player
        let edge = (player.liveEdgeSeconds / live.chunkSeconds + 1e-9).rounded(.down) * live.chunkSeconds
        return PlaybackUpdate(
            sessionSeconds: player.nowSeconds, bufferSeconds: player.bufferSeconds, latencySeconds: player.latencySeconds,
            targetLatencySeconds: settings.targetLatencySeconds, playbackRate: player.rate, playheadSeconds: player.playheadSeconds,
            liveEdgeSeconds: edge, segmentIndex: request.segment, chunksArrived: request.chunk, stalled: player.stalled
        )
    }

    /// A chunk arrived after `transferSeconds`: the player plays up to its arrival and appends it.
    private mutating func arrive(_ chunk: Chunk, transferSeconds: Double, request: inout Request) throws(EmulationError) {
        guard chunk.firstByteSeconds + transferSeconds <= limits.maxSessionSeconds else { throw limits.timeLimit }
        let arrival = chunk.firstByteSeconds + transferSeconds
        live.player.advance(to: arrival)
        let rate = live.player.rate
        live.player.append(mediaEndSeconds: live.mediaEnd(segment: request.segment, chunk: request.chunk))
        let stall = live.player.takeRebuffer()
        request.rebufferSeconds += stall
        live.samples.append(LiveChunkSample(
            segmentIndex: request.segment, chunkIndex: request.chunk, sessionSeconds: arrival, bitrateKbps: request.bitrateKbps,
            rebufferSeconds: stall, latencySeconds: live.player.latencySeconds, playbackRate: rate
        ))
        chunks.append(ChunkRecord(
            index: request.chunk, sizeBytes: chunk.bytes, availableSeconds: chunk.availableSeconds,
            firstByteSeconds: chunk.firstByteSeconds, arrivalSeconds: arrival
        ))
        request.chunk += 1
    }

    /// The segment's last chunk arrived: dash.js's seek when the drift passes its maximum, the
    /// throughput samples, and the request recorded.
    private mutating func complete(_ request: Request, recorder: inout SessionRecorder) {
        let endSeconds = live.player.nowSeconds
        // dash.js seeks when the drift passes maxDrift; checked when a segment has arrived.
        live.nextSegment = request.segment + 1
        var seeked = false
        if seekAsked || live.player.driftsBeyond(live.settings.maxDriftSeconds) {
            seekAsked = false
            let playhead = live.player.seekToLive()
            live.nextSegment = max(request.segment + 1, Int((playhead / live.segmentSeconds + 1e-9).rounded(.down)))
            live.seeks += 1
            seeked = true
        }
        let sizeBytes = request.sizeBytes
        let downloadSeconds = endSeconds - request.startSeconds
        let transferMs = chunks.reduce(0) { $0 + $1.transferSeconds } * 1000
        let throughputKbps = ChunkThroughput.kbps(chunks)
            ?? (transferMs > 0 ? Double(sizeBytes) * 8 / transferMs : Double(sizeBytes) * 8 / max(downloadSeconds, 1e-9) / 1000)
        sync(&recorder)
        if transferMs > 0 {
            recorder.sampleThroughput(
                transferMs: transferMs, bits: throughputKbps * transferMs, latencyMs: request.latencySeconds * 1000,
                first: request.segment == 0, keep: true
            )
        }
        recorder.recordSeedSample(bytes: sizeBytes, durationSeconds: Double(sizeBytes) * 8 / (throughputKbps * 1000), atSeconds: endSeconds)
        recorder.updateEstimate(atSeconds: endSeconds)

        let bufferAfter = live.player.bufferSeconds
        let download = DownloadRecord(
            segmentIndex: request.segment, level: request.level, sizeBytes: sizeBytes, downloadTimeSeconds: downloadSeconds,
            throughputKbps: throughputKbps, rebufferSeconds: request.rebufferSeconds, bufferSeconds: bufferAfter, waitSeconds: 0,
            latencySeconds: request.latencySeconds
        )
        let stats = LiveSegmentStats(
            latencySeconds: live.player.latencySeconds, playbackRate: live.player.rate,
            playheadSeconds: live.player.playheadSeconds, productionWaitSeconds: request.productionWaitSeconds, seekedToLive: seeked
        )
        recorder.record(download, wastedBytes: 0, delivery: SessionRecorder.Delivery(
            startSeconds: request.startSeconds, endSeconds: endSeconds, bufferBeforeSeconds: request.bufferBeforeSeconds, live: stats
        ))
        live.lastChunks = chunks
        // A row delivered by the pattern's start is the warm-up's; the estimate's accuracy and
        // the stall count start over with the pattern, as the challenge's recording does.
        if var warmup = live.warmup, endSeconds <= warmup.seconds {
            warmup.rowCount += 1
            warmup.stallCount = live.player.stallCount
            live.warmup = warmup
            recorder.restartAccuracy()
        }
    }

    /// Lets time pass with nothing downloading until session time `seconds` (nothing when it is
    /// past); a wait past the session's time limit is its error.
    private mutating func idle(until seconds: Double) throws(EmulationError) {
        let now = live.player.nowSeconds
        guard seconds > now else { return }
        guard seconds <= limits.maxSessionSeconds else { throw limits.timeLimit }
        try advanceCursor(milliseconds: (seconds - now) * 1000, fromMs: now * 1000)
        live.player.advance(to: seconds)
    }

    /// Lets `milliseconds` pass on the trace, from `fromMs` into the session; a wait past the
    /// session's time limit is its error before the trace is walked.
    private mutating func advanceCursor(milliseconds: Double, fromMs: Double) throws(EmulationError) {
        guard fromMs + milliseconds <= limits.maxSessionMs else { throw limits.timeLimit }
        do { try cursor.advance(milliseconds: milliseconds) } catch { throw limits.error(error) }
    }

    /// Copies the player's counters into what strategies see and stamps its events on the state machine.
    private mutating func sync(_ recorder: inout SessionRecorder) {
        let player = live.player
        nowMs = player.nowSeconds * 1000
        bufferMs = player.bufferSeconds * 1000
        recorder.stallCount = player.stallCount
        recorder.stallMs = player.stallSeconds * 1000
        recorder.rebufferMs = recorder.stallMs
        recorder.startupMs = player.startupSeconds * 1000
        recorder.playbackStartMs = player.playbackStartSeconds.map { $0 * 1000 }
        for event in player.events { recorder.send(event.action, atMs: event.seconds * 1000) }
        live.player.events = []
    }

    /// Plays out the live buffer after the last segment.
    /// A warm-up's rows are left out of the summary, which then spans the session from the
    /// pattern's start.
    mutating func finish(_ recorder: inout SessionRecorder, traceName: String, profileName: String) -> SessionResult {
        let endMs = live.player.playOut() * 1000
        var summary = recorder.playbackSummary(endMs: endMs, playedInDownloadOrder: true, fromRow: live.warmup?.rowCount ?? 0)
        if let warmup = live.warmup {
            summary.sessionSeconds = max(0, endMs / 1000 - warmup.seconds)
            summary.rebufferEvents -= warmup.stallCount
        }
        var result = recorder.finish(endMs: endMs, traceName: traceName, profileName: profileName, summary: summary)
        result.liveChunks = live.samples
        result.liveChunkSeconds = live.chunkSeconds
        result.warmup = live.warmup
        return result
    }
}
