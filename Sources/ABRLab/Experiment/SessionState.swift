import Foundation

/// The mutable state of one session while ``SessionEmulator`` plays it.
struct SessionState {
    let profile: EmulationProfile
    let trace: NetworkTrace
    let video: Video
    let count: Int
    let segmentMs: Double
    let maxBufferMs: Double
    let waitStepMs: Double
    let startupThresholdMs: Double
    let maxSessionMs: Double
    let pathQuality: NetworkQuality?

    var cursor: TraceCursor
    let clock = ManualTimeSource()
    let machine: DefaultPlaybackStateMachine
    let estimator: NetworkBandwidthEstimator

    var bufferMs = 0.0
    var elapsedMs = 0.0
    var rebufferMs = 0.0
    var startupMs = 0.0
    var playing = false
    var stallCount = 0
    var stallMs = 0.0
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
        waitStepMs = profile.bufferWaitStepSeconds * 1000
        startupThresholdMs = min(profile.startupThresholdSeconds, profile.maxBufferSeconds) * 1000
        maxSessionMs = profile.maxSessionSeconds * 1000
        pathQuality = trace.path.map { NetworkQuality(path: $0) }
        cursor = TraceCursor(trace: trace)
        machine = DefaultPlaybackStateMachine(timeSource: clock)
        estimator = NetworkBandwidthEstimator(timeSource: clock)
        downloads.reserveCapacity(count)
        segments.reserveCapacity(count)
    }

    func context(index: Int) -> DecisionContext {
        DecisionContext(
            segmentIndex: index, segmentCount: count, segmentDurationSeconds: video.segmentDurationSeconds,
            ladder: video.ladder, lastLevel: lastLevel, bufferSeconds: bufferMs / 1000,
            rebufferSeconds: rebufferMs / 1000, stallCount: stallCount, stallSeconds: stallMs / 1000,
            playbackStartSeconds: playbackStartMs.map { $0 / 1000 }, elapsedSeconds: elapsedMs / 1000,
            estimateKbps: estimateBitsPerSecond / 1000,
            networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond),
            pathQuality: pathQuality,
            downloads: downloads, video: video
        )
    }

    /// Fetches one segment and plays out the time it took.
    mutating func download(index: Int, level: Int) throws(EmulationError) {
        let sizeBytes = video.sizeBytes(segment: index, level: level)
        let latencySeconds: Double
        switch profile.latency {
        case .fixed(let seconds): latencySeconds = seconds
        case .trace(let fallback): latencySeconds = cursor.currentLatencySeconds ?? fallback
        }
        let latencyMs = latencySeconds * 1000
        if profile.latencyConsumesTraceTime { cursor.advance(milliseconds: latencyMs) }
        let limitSeconds = (maxSessionMs - elapsedMs) / 1000
        guard let transferSeconds = cursor.download(
            sizeBytes: Double(sizeBytes), payloadFraction: profile.payloadFraction, limitSeconds: limitSeconds
        ) else {
            throw .sessionTimeLimit(trace: trace.name, limitSeconds: profile.maxSessionSeconds)
        }
        let delayMs = transferSeconds * 1000 + latencyMs
        let startMs = elapsedMs
        let bufferBeforeMs = bufferMs
        var segmentRebufferMs = 0.0

        if playing {
            segmentRebufferMs = max(delayMs - bufferMs, 0)
            if segmentRebufferMs > 0 {
                stallCount += 1
                stallMs += segmentRebufferMs
                stamp(startMs + bufferMs).send(.didStartBuffering)
                stamp(startMs + delayMs).send(.didFinishBuffering)
            }
            bufferMs = max(bufferMs - delayMs, 0) + segmentMs
        } else {
            startupMs += delayMs
            bufferMs += segmentMs
            if bufferMs >= startupThresholdMs || index == count - 1 {
                playing = true
                playbackStartMs = startMs + delayMs
                stamp(startMs + delayMs).send(.didBecomeReady)
                machine.send(.play)
                if profile.startupCountsAsRebuffer { segmentRebufferMs = startupMs }
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

        var waitMs = 0.0
        if playing, bufferMs > maxBufferMs {
            let excessMs = bufferMs - maxBufferMs
            waitMs = waitStepMs > 0 ? (excessMs / waitStepMs).rounded(.up) * waitStepMs : excessMs
            bufferMs -= waitMs
            cursor.advance(milliseconds: waitMs)
            elapsedMs += waitMs
            clock.elapsedSeconds = elapsedMs / 1000
        }
        estimateBitsPerSecond = estimator.estimatedBandwidth(at: Date(timeIntervalSinceReferenceDate: elapsedMs / 1000))

        let bitrateKbps = video.ladder[level].bitrateKbps
        let downloadSeconds = delayMs / 1000
        let throughputKbps = Double(sizeBytes) * 8 / downloadSeconds / 1000
        let record = SegmentRecord(
            index: index, level: level, bitrateKbps: bitrateKbps, sizeBytes: sizeBytes,
            downloadStartSeconds: startMs / 1000, downloadEndSeconds: endMs / 1000,
            downloadTimeSeconds: downloadSeconds, latencySeconds: latencySeconds, throughputKbps: throughputKbps,
            bufferBeforeSeconds: bufferBeforeMs / 1000, bufferAfterSeconds: bufferMs / 1000,
            rebufferSeconds: segmentRebufferMs / 1000, waitSeconds: waitMs / 1000,
            bufferState: BufferState(bufferSeconds: bufferMs / 1000),
            estimateKbps: estimateBitsPerSecond / 1000,
            networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
        )
        segments.append(record)
        downloads.append(DownloadRecord(
            segmentIndex: index, level: level, sizeBytes: sizeBytes, downloadTimeSeconds: downloadSeconds,
            throughputKbps: throughputKbps, rebufferSeconds: segmentRebufferMs / 1000,
            bufferSeconds: bufferMs / 1000, waitSeconds: waitMs / 1000
        ))
        lastLevel = level
    }

    /// Plays out the remaining buffer and closes the log.
    mutating func finish(recordsTransitions: Bool) -> SessionResult {
        let endMs = elapsedMs + bufferMs
        stamp(endMs).send(.didReachEnd)
        return SessionResult(
            traceName: trace.name, profileName: profile.name, segments: segments,
            transitions: recordsTransitions ? machine.history : [],
            startupSeconds: startupMs / 1000, stallCount: stallCount, endSeconds: endMs / 1000,
            segmentDurationSeconds: video.segmentDurationSeconds
        )
    }

    /// Sets the session clock to `milliseconds` and returns the machine, for stamping an action.
    private func stamp(_ milliseconds: Double) -> DefaultPlaybackStateMachine {
        clock.elapsedSeconds = milliseconds / 1000
        return machine
    }
}
