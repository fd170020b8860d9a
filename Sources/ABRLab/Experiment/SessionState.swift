import Foundation

/// The mutable state of one session while ``SessionEmulator`` plays it: the network model, the
/// player model, the estimators and what the session recorded.
///
/// The profile picks the mechanics: ``requestOnLevelBuffer(index:decision:)`` walks the
/// trace with ``TraceCursor`` and keeps the buffer as one number (`pensieve`, `default`);
/// ``requestOnSegmentBuffer(index:decision:check:)`` walks it with ``NetworkLink`` and keeps a
/// ``SegmentBuffer`` (`sabre`). Times are milliseconds inside, seconds in everything public.
struct SessionState {
    let profile: EmulationProfile
    let trace: NetworkTrace
    let video: Video
    let count: Int
    let segmentMs: Double
    let maxBufferMs: Double
    let startupThresholdMs: Double
    let maxSessionMs: Double
    let pathQuality: NetworkQuality?
    /// The transfer settings of the cursor-walking mechanics (whole transfers and live).
    let payloadFraction: Double
    let latency: EmulationProfile.Latency
    let latencyConsumesTraceTime: Bool
    let startupCountsAsRebuffer: Bool
    let bufferWaitStepSeconds: Double
    let segmentSettings: SegmentBufferSettings

    var cursor: TraceCursor
    var link: NetworkLink?
    var segmentBuffer: SegmentBuffer?
    /// The live encoder and player (`live` buffer only).
    var live: LiveSessionState?
    let clock = ManualTimeSource()
    let machine: DefaultPlaybackStateMachine
    let estimator: NetworkBandwidthEstimator
    /// The profile's throughput estimator, when it keeps one.
    var throughput: ThroughputEstimator?
    var accuracy = EstimateAccuracy()

    var bufferMs = 0.0
    var elapsedMs = 0.0
    var rebufferMs = 0.0
    var startupMs = 0.0
    var playing = false
    var stalled = false
    var stallCount = 0
    var stallMs = 0.0
    /// Stall time not yet attributed to a delivered segment's row.
    var unattributedStallMs = 0.0
    /// Requests and wasted bytes of the segment not yet delivered.
    var pendingRequests = 0
    var pendingWastedBytes = 0.0
    var playbackStartMs: Double?
    var lastLevel: Int?
    var estimateBitsPerSecond = 0.0
    var downloads: [DownloadRecord] = []
    var segments: [SegmentRecord] = []

    init(profile: EmulationProfile, trace: NetworkTrace, video: Video, count: Int) {
        self.profile = profile
        self.trace = trace
        self.video = video
        self.count = count
        segmentMs = video.segmentDurationSeconds * 1000
        maxBufferMs = profile.maxBufferSeconds * 1000
        var threshold = 0.0
        var segmentSettings = SegmentBufferSettings()
        switch profile.mechanics {
        case .wholeTransfers(let settings):
            payloadFraction = settings.payloadFraction
            latency = settings.latency
            latencyConsumesTraceTime = settings.latencyConsumesTraceTime
            startupCountsAsRebuffer = settings.startupCountsAsRebuffer
            bufferWaitStepSeconds = settings.bufferWaitStepSeconds
            threshold = settings.startupThresholdSeconds
        case .segmentBuffer(let settings):
            payloadFraction = 1
            latency = .trace(fallbackSeconds: settings.fallbackLatencySeconds)
            latencyConsumesTraceTime = true
            startupCountsAsRebuffer = false
            bufferWaitStepSeconds = 0
            segmentSettings = settings
        case .live(let settings):
            payloadFraction = settings.payloadFraction
            latency = settings.latency
            latencyConsumesTraceTime = settings.latencyConsumesTraceTime
            startupCountsAsRebuffer = false
            bufferWaitStepSeconds = 0
            threshold = settings.startupThresholdSeconds
        }
        self.segmentSettings = segmentSettings
        startupThresholdMs = min(threshold, profile.maxBufferSeconds) * 1000
        maxSessionMs = profile.maxSessionSeconds * 1000
        pathQuality = trace.path.map { NetworkQuality(path: $0) }
        cursor = TraceCursor(trace: trace, stepLimit: profile.maxSessionSteps)
        machine = DefaultPlaybackStateMachine(timeSource: clock)
        estimator = NetworkBandwidthEstimator(timeSource: clock)
        throughput = profile.estimator.map { ThroughputEstimator(method: $0, segmentDurationSeconds: video.segmentDurationSeconds) }
        if case .segmentBuffer(let settings) = profile.mechanics {
            link = NetworkLink(
                trace: trace, bandwidthMultiplier: settings.bandwidthMultiplier, fallbackLatencyMs: settings.fallbackLatencySeconds * 1000,
                ladderKbps: video.bitratesKbps, segmentMs: segmentMs,
                limitMs: maxSessionMs, stepLimit: profile.maxSessionSteps
            )
            segmentBuffer = SegmentBuffer(
                segmentMs: segmentMs, bitratesKbps: video.bitratesKbps, rampUpLevel: settings.rampUpLevel, maxBufferMs: maxBufferMs
            )
        }
        if case .live(let settings) = profile.mechanics {
            live = LiveSessionState(
                settings: settings, segmentSeconds: video.segmentDurationSeconds,
                startupThresholdSeconds: settings.startupThresholdSeconds, segmentCount: count
            )
        }
        downloads.reserveCapacity(count)
        segments.reserveCapacity(count)
    }

    func context(index: Int) -> DecisionContext {
        var context = DecisionContext(
            segmentIndex: index, segmentCount: count, segmentDurationSeconds: video.segmentDurationSeconds,
            ladder: video.ladder, lastLevel: lastLevel, bufferSeconds: currentBufferMs / 1000,
            rebufferSeconds: rebufferMs / 1000, stallCount: stallCount, stallSeconds: stallMs / 1000,
            playbackStartSeconds: playbackStartMs.map { $0 / 1000 }, elapsedSeconds: elapsedMs / 1000,
            estimateKbps: estimateBitsPerSecond / 1000,
            networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond),
            pathQuality: pathQuality,
            downloads: downloads, video: video,
            throughputEstimateKbps: throughput?.throughputKbps,
            latencyEstimateSeconds: throughput?.latencyMs.map { $0 / 1000 },
            maxBufferSeconds: profile.maxBufferSeconds
        )
        if let live {
            context.live = live.state
            context.throughputMethod = .chunk
        }
        return context
    }

    var currentBufferMs: Double { segmentBuffer?.levelMs ?? bufferMs }

    /// The session's error for a walk over the trace that stopped at one of its limits.
    func stopped(_ stop: TraceWalkStop) -> EmulationError {
        switch stop {
        case .timeLimit: .sessionTimeLimit(trace: trace.name, limitSeconds: profile.maxSessionSeconds)
        case .stepLimit: .sessionStepLimit(trace: trace.name, steps: profile.maxSessionSteps)
        }
    }

    /// Runs one walk over the trace (on a link the caller holds), its stop as the session's error.
    @inline(__always)
    func walk<T>(_ body: () throws(TraceWalkStop) -> T) throws(EmulationError) -> T {
        do { return try body() } catch { throw stopped(error) }
    }

    /// Spends one step of the session's budget on a request or a chunk, from the budget of the
    /// walker this profile uses.
    mutating func spendStep() throws(EmulationError) {
        do {
            if link != nil { try link?.spendStep() } else { try cursor.spendStep() }
        } catch {
            throw stopped(error)
        }
    }

    /// Lets `milliseconds` pass on the cursor's trace, from `fromMs` into the session; a wait past
    /// the session's time limit is its error before the trace is walked (a latency of 1e300 s
    /// would never shrink by a period's length).
    mutating func advanceCursor(milliseconds: Double, fromMs: Double) throws(EmulationError) {
        guard fromMs + milliseconds <= maxSessionMs else { throw stopped(.timeLimit) }
        do { try cursor.advance(milliseconds: milliseconds) } catch { throw stopped(error) }
    }

    /// Fetches one segment whole and plays out the time it took, in `fixed_env.py`'s order.
    mutating func requestOnLevelBuffer(index: Int, decision: RequestDecision) throws(EmulationError) {
        let level = decision.level
        if decision.delaySeconds > 0 { try idleOnLevelBuffer(milliseconds: decision.delaySeconds * 1000) }
        let sizeBytes = video.sizeBytes(segment: index, level: level)
        let latencySeconds: Double
        switch latency {
        case .fixed(let seconds): latencySeconds = seconds
        case .trace(let fallback): latencySeconds = cursor.currentLatencySeconds ?? fallback
        }
        let latencyMs = latencySeconds * 1000
        if latencyConsumesTraceTime { try advanceCursor(milliseconds: latencyMs, fromMs: elapsedMs) }
        let limitSeconds = (maxSessionMs - elapsedMs) / 1000
        let transferSeconds: Double
        do {
            transferSeconds = try cursor.download(sizeBytes: Double(sizeBytes), payloadFraction: payloadFraction, limitSeconds: limitSeconds)
        } catch {
            throw stopped(error)
        }
        let delayMs = transferSeconds * 1000 + latencyMs
        let startMs = elapsedMs
        let bufferBeforeMs = bufferMs
        var segmentRebufferMs = unattributedStallMs
        unattributedStallMs = 0

        if playing {
            let stall = max(delayMs - bufferMs, 0)
            if stall > 0 {
                stallCount += 1
                stallMs += stall
                stamp(startMs + bufferMs).send(.didStartBuffering)
                stamp(startMs + delayMs).send(.didFinishBuffering)
            }
            segmentRebufferMs += stall
            bufferMs = max(bufferMs - delayMs, 0) + segmentMs
        } else {
            startupMs += delayMs
            bufferMs += segmentMs
            if bufferMs >= startupThresholdMs || index == count - 1 {
                playing = true
                playbackStartMs = startMs + delayMs
                stamp(startMs + delayMs).send(.didBecomeReady)
                machine.send(.play)
                if startupCountsAsRebuffer { segmentRebufferMs = startupMs }
            }
        }
        rebufferMs += segmentRebufferMs
        elapsedMs += delayMs
        guard elapsedMs <= maxSessionMs else {
            throw .sessionTimeLimit(trace: trace.name, limitSeconds: profile.maxSessionSeconds)
        }
        clock.elapsedSeconds = elapsedMs / 1000
        estimator.recordSample(bytes: UInt64(sizeBytes), duration: delayMs / 1000, at: Date(timeIntervalSinceReferenceDate: elapsedMs / 1000))
        let endMs = elapsedMs
        if throughput != nil { sampleThroughput(transferMs: transferSeconds * 1000, bits: Double(sizeBytes) * 8, latencyMs: latencyMs, first: index == 0, keep: true) }

        var waitMs = 0.0
        if playing, bufferMs > maxBufferMs {
            let stepSeconds = bufferWaitStepSeconds
            let excessMs = bufferMs - maxBufferMs
            let stepMs = stepSeconds * 1000
            waitMs = stepMs > 0 ? (excessMs / stepMs).rounded(.up) * stepMs : excessMs
            bufferMs -= waitMs
            try advanceCursor(milliseconds: waitMs, fromMs: elapsedMs)
            elapsedMs += waitMs
            clock.elapsedSeconds = elapsedMs / 1000
        }
        estimateBitsPerSecond = estimator.estimatedBandwidth(at: Date(timeIntervalSinceReferenceDate: elapsedMs / 1000))

        let downloadSeconds = delayMs / 1000
        let throughputKbps = Double(sizeBytes) * 8 / downloadSeconds / 1000
        segments.append(SegmentRecord(
            index: index, level: level, bitrateKbps: video.ladder[level].bitrateKbps, sizeBytes: sizeBytes,
            downloadStartSeconds: startMs / 1000, downloadEndSeconds: endMs / 1000,
            downloadTimeSeconds: downloadSeconds, latencySeconds: latencySeconds, throughputKbps: throughputKbps,
            bufferBeforeSeconds: bufferBeforeMs / 1000, bufferAfterSeconds: bufferMs / 1000,
            rebufferSeconds: segmentRebufferMs / 1000, waitSeconds: waitMs / 1000,
            bufferState: BufferState(bufferSeconds: bufferMs / 1000),
            estimateKbps: estimateBitsPerSecond / 1000,
            networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
        ))
        downloads.append(DownloadRecord(
            segmentIndex: index, level: level, sizeBytes: sizeBytes, downloadTimeSeconds: downloadSeconds,
            throughputKbps: throughputKbps, rebufferSeconds: segmentRebufferMs / 1000,
            bufferSeconds: bufferMs / 1000, waitSeconds: waitMs / 1000, latencySeconds: latencySeconds
        ))
        lastLevel = level
    }

    /// A strategy's idle delay on the level buffer: the buffer drains (a stall when it runs dry)
    /// while the trace moves on.
    private mutating func idleOnLevelBuffer(milliseconds: Double) throws(EmulationError) {
        guard elapsedMs + milliseconds <= maxSessionMs else { throw stopped(.timeLimit) }
        if playing {
            let stall = max(milliseconds - bufferMs, 0)
            if stall > 0 {
                stallCount += 1
                stallMs += stall
                unattributedStallMs += stall
                stamp(elapsedMs + bufferMs).send(.didStartBuffering)
                stamp(elapsedMs + milliseconds).send(.didFinishBuffering)
            }
            bufferMs = max(bufferMs - milliseconds, 0)
        } else {
            startupMs += milliseconds
        }
        try advanceCursor(milliseconds: milliseconds, fromMs: elapsedMs)
        elapsedMs += milliseconds
        clock.elapsedSeconds = elapsedMs / 1000
    }

    /// Plays out the remaining buffer and closes the log.
    mutating func finish(recordsTransitions: Bool) -> SessionResult {
        let endMs: Double
        if segmentBuffer != nil {
            endMs = finishSegmentBuffer()
        } else if live != nil {
            endMs = finishLive()
        } else {
            endMs = elapsedMs + bufferMs
        }
        stamp(endMs).send(.didReachEnd)
        var result = SessionResult(
            traceName: trace.name, profileName: profile.name, segments: segments,
            transitions: recordsTransitions ? machine.history : [],
            startupSeconds: startupMs / 1000, stallCount: stallCount, endSeconds: endMs / 1000,
            segmentDurationSeconds: video.segmentDurationSeconds
        )
        result.playback = playbackSummary(endMs: endMs)
        result.liveChunks = live?.samples ?? []
        result.liveChunkSeconds = live?.chunkSeconds
        return result
    }

    /// Sets the session clock to `milliseconds` and returns the machine, for stamping an action.
    func stamp(_ milliseconds: Double) -> DefaultPlaybackStateMachine {
        clock.elapsedSeconds = milliseconds / 1000
        return machine
    }
}
