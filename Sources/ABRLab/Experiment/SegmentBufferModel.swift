/// Sabre's mechanics (`sabre`): the trace walked with ``NetworkLink`` in milliseconds and bits,
/// a ``SegmentBuffer`` of whole segments, a wait before each request until a segment fits,
/// downloads in progress steps that an abandonment check can stop, and replacements of buffered
/// segments; in the order of Sabre's session loop (Spiteri, Nguyen, Sitaraman, MMSys 2018,
/// doi:10.1145/3204949.3204953).
struct SegmentBufferModel: WaitsForRoom, ChecksAbandonment {
    static var kind: PlayerModelKind { .segmentBuffer }

    /// Sabre's progress step: at least this many bits and milliseconds between abandonment checks.
    static let progressStepBits = 12_000.0
    static let progressStepMs = 50.0

    /// A request from its start to its end. The model keeps one (``request``) and changes it in
    /// place: held in ``Phase``, its 140 bytes were copied out of the enum and back at every
    /// 50 ms progress step and every check, a fifth of a `sabre` run's instructions.
    struct Request {
        let first: Bool
        /// Where a replacement goes, as a negative offset from the newest buffered segment.
        let replaceOffset: Int?
        let target: Int
        let level: Int
        let sizeBits: Double
        let startMs: Double
        let bufferAtStartMs: Double
        let ttfbMs: Double
        /// Time since the request, latency included.
        var downloadMs: Double
        var receivedBits = 0.0
        var abandonedTo: Int?
        var abandoned = false
        /// The next progress step's minimum time (the first step's counts from the request).
        var minMs: Double
        var recheck = AbandonmentRecheck.nextStep
        /// Network events told so far: the request's start, then its first byte.
        var told = 0

        /// What ``request`` holds before the first request: ``phase`` is idle, so nothing reads it.
        static let none = Request(
            first: true, replaceOffset: nil, target: 0, level: 0, sizeBits: 0, startMs: 0, bufferAtStartMs: 0, ttfbMs: 0, downloadMs: 0, minMs: 0
        )
    }

    /// Where ``request`` stands.
    enum Phase {
        case idle
        /// A plain transfer, without abandonment checks.
        case transferring(NetworkLink.Transfer)
        /// A transfer in progress steps; the step under way, if one is.
        case progressing(NetworkLink.ProgressStep?)
        /// Stopped at an abandonment check.
        case checking
        /// The transfer ended or was abandoned; it is still to be accounted for.
        case ending
        /// Recorded and told as an event; the request is done.
        case done(delivered: Bool)
    }

    let settings: SegmentBufferSettings
    let video: Video
    let limits: SessionLimits
    let segmentCount: Int
    let segmentMs: Double
    let maxBufferMs: Double

    var link: NetworkLink
    var buffer: SegmentBuffer
    var playing = false
    var stalled = false
    var phase = Phase.idle
    /// The request under way, or the last one; ``phase`` says which.
    var request = Request.none

    init(settings: SegmentBufferSettings, setup: SessionSetup) {
        self.settings = settings
        video = setup.video
        limits = setup.limits
        segmentCount = setup.segmentCount
        segmentMs = video.segmentDurationSeconds * 1000
        maxBufferMs = setup.profile.maxBufferSeconds * 1000
        link = NetworkLink(
            trace: setup.trace, bandwidthMultiplier: settings.bandwidthMultiplier, fallbackLatencyMs: settings.fallbackLatencySeconds * 1000,
            ladderKbps: video.bitratesKbps, segmentMs: segmentMs, limitMs: limits.maxSessionMs, stepLimit: setup.profile.maxSessionSteps
        )
        buffer = SegmentBuffer(segmentMs: segmentMs, bitratesKbps: video.bitratesKbps, rampUpLevel: settings.rampUpLevel, maxBufferMs: maxBufferMs)
    }

    var bufferMs: Double { buffer.bufferedMs }
    var nowMs: Double { buffer.playTimeMs }

    mutating func spendStep() throws(EmulationError) {
        do { try link.spendStep() } catch { throw limits.error(error) }
    }

    mutating func waitForRoom(_ recorder: inout SessionRecorder) throws(EmulationError) -> Double {
        guard playing else { return 0 }
        let waitMs = settings.player == .dashjs ? dashjsWaitMs() : buffer.bufferedMs + segmentMs - maxBufferMs
        guard waitMs > 0 else { return 0 }
        drain(waitMs, recorder: &recorder)
        try limits.walk { () throws(TraceWalkStop) in try link.idle(milliseconds: waitMs) }
        advertise()
        recorder.addWaitToLastRow(milliseconds: waitMs)
        return waitMs
    }

    /// dash.js's scheduler: it requests while `buffer + segment < target` (30 s while the top level plays, else
    /// 18 s, both capped by the profile's maximum buffer) and otherwise retries every 500 ms, so a full buffer
    /// waits whole retries until the level is strictly under the target.
    private func dashjsWaitMs() -> Double {
        let top = request.level == video.bitratesKbps.count - 1
        let targetMs = top ? maxBufferMs : min(maxBufferMs, SegmentBufferPlayer.dashjsBufferTimeDefaultSeconds * 1000)
        let excessMs = buffer.bufferedMs + segmentMs - targetMs
        guard excessMs >= 0 else { return 0 }
        let retryMs = SegmentBufferPlayer.dashjsScheduleRetryMs
        return ((excessMs / retryMs).rounded(.down) + 1) * retryMs
    }

    /// An optional idle delay, then the request latency; the transfer follows in steps.
    mutating func begin(segment: Int, decision: RequestDecision, recorder: inout SessionRecorder) throws(EmulationError) {
        let first = !playing
        let replaceOffset = first ? nil : replacementOffset(for: decision.level)
        let delayMs = replaceOffset == nil ? decision.delaySeconds * 1000 : 0
        if delayMs > 0 {
            if first { buffer.addStartup(milliseconds: delayMs) } else { drain(delayMs, recorder: &recorder) }
            try limits.walk { () throws(TraceWalkStop) in try link.idle(milliseconds: delayMs) }
            advertise()
        }
        let target = replaceOffset.map { segment + $0 } ?? segment
        let sizeBits = video.sizeBits(segment: target, level: decision.level)
        let startMs = buffer.playTimeMs
        let bufferAtStartMs = buffer.bufferedMs
        let ttfbMs = try limits.walk { () throws(TraceWalkStop) in try link.payLatency() }
        request = Request(
            first: first, replaceOffset: replaceOffset, target: target, level: decision.level, sizeBits: sizeBits,
            startMs: startMs, bufferAtStartMs: bufferAtStartMs, ttfbMs: ttfbMs, downloadMs: ttfbMs,
            minMs: Self.progressStepMs - ttfbMs
        )
        phase = settings.abandonment && (!first || settings.player.checksFirstRequest) ? .progressing(nil) : .transferring(NetworkLink.Transfer(bits: sizeBits))
    }

    mutating func answer(_ answer: AbandonmentAnswer) {
        guard case .checking = phase else { return }
        if let lower = answer.level {
            request.abandoned = true
            request.abandonedTo = lower
            phase = .ending
        } else {
            request.recheck = answer.recheck
            phase = .progressing(nil)
        }
    }

    /// Where a replacement goes: the negative offset from the newest buffered segment of the
    /// first segment below `level`, scanning past the ones about to play; `nil` for none.
    private func replacementOffset(for level: Int) -> Int? {
        guard settings.replacement != .none else { return nil }
        let skip = Int((1.5 + buffer.playedOfHeadMs / segmentMs).rounded(.up))
        let levels = Array(buffer.bufferedLevels)
        guard skip < levels.count else { return nil }
        let positions: [Int] = settings.replacement == .left ? Array(skip..<levels.count) : Array((skip..<levels.count).reversed())
        guard let position = positions.first(where: { levels[$0] < level }) else { return nil }
        return position - levels.count
    }

    /// Drains the buffer, stamping the start of a stall on the state machine.
    mutating func drain(_ milliseconds: Double, recorder: inout SessionRecorder) {
        let stallBefore = buffer.stallMs
        let bufferedBefore = buffer.bufferedMs
        let startMs = buffer.playTimeMs
        buffer.drain(milliseconds, sustainableLevel: link.sustainableLevel)
        let stall = buffer.stallMs - stallBefore
        guard stall > 0 else { return }
        recorder.unattributedStallMs += stall
        recorder.rebufferMs += stall
        recorder.stallMs += stall
        recorder.stallCount = buffer.stallEvents
        if !stalled {
            stalled = true
            recorder.send(.didStartBuffering, atMs: startMs + bufferedBefore)
        }
    }

    /// Hands the network's sustainable-level changes since the last call to the reaction tracker.
    mutating func advertise() {
        for change in link.takeLevelChanges() {
            buffer.reactions.advertise(level: change.level, previous: change.previous, at: change.timeMs, buffered: buffer.bufferedLevels)
        }
    }

    /// Plays out what is buffered.
    mutating func finish(_ recorder: inout SessionRecorder, traceName: String, profileName: String) -> SessionResult {
        let stallBefore = buffer.stallMs
        buffer.playOut(sustainableLevel: link.sustainableLevel)
        let stall = buffer.stallMs - stallBefore
        recorder.rebufferMs += stall
        recorder.stallMs += stall
        recorder.stallCount = buffer.stallEvents
        if stall > 0 { recorder.addRebufferToLastRow(milliseconds: stall) }
        let endMs = buffer.playTimeMs
        var summary = recorder.playbackSummary(endMs: endMs, playedInDownloadOrder: false)
        summary.playedUtility = buffer.played.utility
        summary.playedBitrateKbps = buffer.played.bitrateKbps
        summary.bitrateChangeKbps = buffer.played.bitrateChangeKbps
        summary.logBitrateChange = buffer.played.logBitrateChange
        summary.rampUpSeconds = (buffer.rampUpMs ?? Double(segmentCount) * segmentMs) / 1000
        summary.reactionSeconds = buffer.reactions.totalMs / 1000
        summary.rebufferSeconds = buffer.stallMs / 1000
        return recorder.finish(endMs: endMs, traceName: traceName, profileName: profileName, summary: summary)
    }
}
