import Foundation

/// What one session records, whatever its player model: segment rows and download records,
/// stalls and start-up, the seed's estimator and the profile's throughput estimator with its
/// accuracy, and the state machine's transitions. The one place a ``SegmentRecord`` is built.
///
/// Player models report what happened (a delivery, a stall, a sample); times are milliseconds
/// inside, seconds in records, converted in the same operations as before the engine was split.
struct SessionRecorder: Sendable {
    let video: Video
    let segmentCount: Int
    let maxBufferSeconds: Double
    let pathQuality: NetworkQuality?
    /// What every context of the session shares.
    let contextConstants: DecisionContext.Constants

    private(set) var log: PlaybackLog
    private var seedEstimator = BandwidthSampleWindow()
    /// The profile's throughput estimator, when it keeps one.
    private(set) var throughput: ThroughputEstimator?
    private var accuracy = EstimateAccuracy()
    private(set) var estimateBitsPerSecond = 0.0
    private(set) var downloads: [DownloadRecord] = []
    private(set) var segments: [SegmentRecord] = []
    private(set) var lastLevel: Int?

    var startupMs = 0.0
    /// Stall time as the profile counts it (start-up included where it says so).
    var rebufferMs = 0.0
    /// Mid-playback stalls and their time.
    var stallCount = 0
    var stallMs = 0.0
    var playbackStartMs: Double?
    /// Stall time not yet attributed to a delivered segment's row.
    var unattributedStallMs = 0.0
    /// Requests and wasted bytes of the segment not yet delivered.
    private var pendingRequests = 0
    private var pendingWastedBytes = 0.0

    init(video: Video, segmentCount: Int, profile: EmulationProfile, path: NetworkPath?, keepsTransitions: Bool) {
        self.video = video
        self.segmentCount = segmentCount
        maxBufferSeconds = profile.maxBufferSeconds
        pathQuality = path.map { NetworkQuality(path: $0) }
        contextConstants = DecisionContext.Constants(
            segmentCount: segmentCount, segmentDurationSeconds: video.segmentDurationSeconds, ladder: video.ladder,
            pathQuality: pathQuality, maxBufferSeconds: profile.maxBufferSeconds, video: video
        )
        log = PlaybackLog(keepsHistory: keepsTransitions)
        throughput = profile.estimator.map { ThroughputEstimator(method: $0, segmentDurationSeconds: video.segmentDurationSeconds) }
        downloads.reserveCapacity(segmentCount)
        segments.reserveCapacity(segmentCount)
        log.send(.load(video.sessionURL), atMs: 0)
    }

    /// Stamps `action` on the state machine at `milliseconds` into the session.
    mutating func send(_ action: PlaybackAction, atMs milliseconds: Double) {
        log.send(action, atMs: milliseconds)
    }

    /// Playback started at `milliseconds`: the machine becomes ready and plays.
    mutating func startPlayback(atMs milliseconds: Double) {
        playbackStartMs = milliseconds
        log.send(.didBecomeReady, atMs: milliseconds)
        log.send(.play, atMs: milliseconds)
    }

    /// A stall from `startMs` to `endMs` on the level buffer: counted, its time not yet attributed.
    mutating func stall(fromMs startMs: Double, toMs endMs: Double, milliseconds: Double) {
        stallCount += 1
        stallMs += milliseconds
        log.send(.didStartBuffering, atMs: startMs)
        log.send(.didFinishBuffering, atMs: endMs)
    }

    // MARK: Estimators

    /// Adds a sample to the seed's estimator.
    mutating func recordSeedSample(bytes: Int, durationSeconds: Double, atSeconds seconds: Double) {
        seedEstimator.record(bytes: UInt64(bytes), durationSeconds: durationSeconds, atSeconds: seconds)
    }

    /// Updates the estimate strategies see from the seed's estimator, as of `seconds`.
    mutating func updateEstimate(atSeconds seconds: Double) {
        estimateBitsPerSecond = seedEstimator.estimate(atSeconds: seconds)
    }

    /// Scores the estimate held before a request against what the request measured (not for the
    /// first), then adds the sample to the estimator unless it is to be dropped (abandoned requests).
    mutating func sampleThroughput(transferMs: Double, bits: Double, latencyMs: Double, first: Bool, keep: Bool) {
        // Read and mutated in place: a copy of the estimator would retain and release each of its arrays.
        guard throughput != nil else { return }
        let sampleKbps = bits / transferMs
        if !first { accuracy.record(estimateKbps: throughput?.throughputKbps, sampleKbps: sampleKbps) }
        if keep { throughput?.add(transferMs: transferMs, throughputKbps: sampleKbps, latencyMs: latencyMs) }
    }

    var keepsThroughputEstimate: Bool { throughput != nil }

    /// Forgets the estimate's accuracy so far: a live warm-up's downloads count in no summary.
    mutating func restartAccuracy() { accuracy = EstimateAccuracy() }

    // MARK: Records

    /// Where and when a delivered segment arrived, for its row.
    struct Delivery {
        var startSeconds: Double
        var endSeconds: Double
        var bufferBeforeSeconds: Double
        var live: LiveSegmentStats?
    }

    /// Records one request. A delivered segment (`delivery` given) gets its row, with the
    /// requests and wasted bytes of the attempts before it; an abandoned attempt adds to those; a
    /// replacement's attempts count on the row of the segment it replaces.
    mutating func record(_ download: DownloadRecord, wastedBytes: Double, delivery: Delivery?) {
        pendingRequests += 1
        pendingWastedBytes += wastedBytes
        if let delivery {
            var row = SegmentRecord(
                index: download.segmentIndex, level: download.level, bitrateKbps: video.ladder[download.level].bitrateKbps,
                sizeBytes: download.sizeBytes, downloadStartSeconds: delivery.startSeconds, downloadEndSeconds: delivery.endSeconds,
                downloadTimeSeconds: download.downloadTimeSeconds, latencySeconds: download.latencySeconds,
                throughputKbps: download.throughputKbps, bufferBeforeSeconds: delivery.bufferBeforeSeconds,
                bufferAfterSeconds: download.bufferSeconds, rebufferSeconds: download.rebufferSeconds,
                waitSeconds: download.waitSeconds, bufferState: BufferState(bufferSeconds: download.bufferSeconds),
                estimateKbps: estimateBitsPerSecond / 1000, networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
            )
            row.requests = pendingRequests
            row.wastedBytes = pendingWastedBytes
            row.live = delivery.live
            segments.append(row)
            pendingRequests = 0
            pendingWastedBytes = 0
            lastLevel = download.level
        } else if download.isReplacement {
            pendingRequests -= 1
            pendingWastedBytes -= wastedBytes
            if download.segmentIndex < segments.count {
                segments[download.segmentIndex].requests += 1
                segments[download.segmentIndex].wastedBytes += wastedBytes
            }
        }
        downloads.append(download)
    }

    /// The latest row waited `milliseconds` more after it (a wait before the next request).
    mutating func addWaitToLastRow(milliseconds: Double) {
        guard !segments.isEmpty else { return }
        segments[segments.count - 1].waitSeconds += milliseconds / 1000
    }

    /// The latest row stalled `milliseconds` more (the stall of the final play-out).
    mutating func addRebufferToLastRow(milliseconds: Double) {
        guard !segments.isEmpty else { return }
        segments[segments.count - 1].rebufferSeconds += milliseconds / 1000
    }

    /// A replacement overwrote buffered segment `segment`: its row now shows what plays.
    mutating func noteReplacement(segment: Int, from previous: Int, to level: Int) {
        guard segment < segments.count else { return }
        if segments[segment].replacedLevel == nil { segments[segment].replacedLevel = previous }
        segments[segment].level = level
        segments[segment].bitrateKbps = video.ladder[level].bitrateKbps
        segments[segment].sizeBytes = video.sizeBytes(segment: segment, level: level)
    }

    // MARK: Context and result

    /// What a strategy sees before deciding segment `index`, with the player's buffer and clock.
    func context(index: Int, bufferMs: Double, nowMs: Double) -> DecisionContext {
        var context = DecisionContext(constants: contextConstants, segmentIndex: index, downloads: [])
        refresh(&context, index: index, bufferMs: bufferMs, nowMs: nowMs)
        return context
    }

    /// Brings `context`, built by ``context(index:bufferMs:nowMs:)`` for this session, up to
    /// date for segment `index`: every field that changes during a session is set here, and
    /// only those, so the ladder, the video and the path are not copied again at every step.
    @inline(__always)
    func refresh(_ context: inout DecisionContext, index: Int, bufferMs: Double, nowMs: Double) {
        context.segmentIndex = index
        context.lastLevel = lastLevel
        context.bufferSeconds = bufferMs / 1000
        context.rebufferSeconds = rebufferMs / 1000
        context.stallCount = stallCount
        context.stallSeconds = stallMs / 1000
        context.playbackStartSeconds = playbackStartMs.map { $0 / 1000 }
        context.elapsedSeconds = nowMs / 1000
        context.estimateKbps = estimateBitsPerSecond / 1000
        context.networkQuality = NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
        context.downloads = downloads
        context.throughputEstimateKbps = throughput?.throughputKbps
        context.latencyEstimateSeconds = throughput?.latencyMs.map { $0 / 1000 }
    }

    /// The session's summary; with `playedInDownloadOrder`, the played totals of a player that
    /// plays segments in the order they arrive (a model that knows better fills them in itself).
    /// Rows before `fromRow` (a live warm-up's) add nothing but the level the next one switches from.
    func playbackSummary(endMs: Double, playedInDownloadOrder: Bool, fromRow: Int = 0) -> PlaybackSummary {
        let skipped = segments.prefix(fromRow)
        var summary = PlaybackSummary(
            sessionSeconds: endMs / 1000, segmentDurationSeconds: video.segmentDurationSeconds,
            rebufferSeconds: rebufferMs / 1000 - skipped.reduce(0) { $0 + $1.rebufferSeconds },
            rebufferEvents: stallCount, accuracy: throughput == nil ? nil : accuracy
        )
        guard playedInDownloadOrder else { return summary }
        let kbps = video.bitratesKbps
        let utilities = kbps.map { Foundation.log($0) + (0 - Foundation.log(kbps[0])) }
        var previous = skipped.last?.level
        for segment in segments.dropFirst(fromRow) {
            summary.playedUtility += utilities[segment.level]
            summary.playedBitrateKbps += kbps[segment.level]
            if let previous, previous != segment.level {
                summary.bitrateChangeKbps += abs(kbps[segment.level] - kbps[previous])
                summary.logBitrateChange += abs(Foundation.log(kbps[segment.level] / kbps[previous]))
            }
            previous = segment.level
        }
        return summary
    }

    /// Closes the log at `endMs` and hands over what was recorded.
    mutating func finish(endMs: Double, traceName: String, profileName: String, summary: PlaybackSummary) -> SessionResult {
        log.send(.didReachEnd, atMs: endMs)
        var result = SessionResult(
            traceName: traceName, profileName: profileName, segments: segments, transitions: log.history,
            startupSeconds: startupMs / 1000, stallCount: stallCount, endSeconds: endMs / 1000,
            segmentDurationSeconds: video.segmentDurationSeconds
        )
        result.playback = summary
        return result
    }
}
