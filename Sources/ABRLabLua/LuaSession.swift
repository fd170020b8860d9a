import ABRLab
import CLuaShim

/// One script instance playing one session in the calling thread's engine.
///
/// Its Lua state (environment, upvalues, random generator, ctx tables) belongs to this session
/// alone. It runs only on the thread that opened it: the engine is that thread's.
final class LuaSession {
    let script: LuaScript
    private var engine: LuaEngine
    private let handle: OpaquePointer
    private let levelCount: Int
    private let ladderBitrates: [Int]
    /// Downloads already copied into ctx; later decisions send only the new ones.
    private var downloadsSent = 0
    /// dash.js's default rules watching the session on the `dashjs` profile, for ctx's `dashjs_` fields.
    private var advisor: DashJSAdvisor?

    /// Runs the script's top level in a fresh environment and calls its `setup(session)`.
    init(script: LuaScript, info: SessionInfo) throws(InputError) {
        let engine: LuaEngine
        do { engine = try LuaEngineCache.current.engine(limits: script.limits, verbose: script.verbose) } catch {
            throw InputError(file: script.path, error.message)
        }
        let compiled = try engine.compiledScript(for: script)
        var opened: OpaquePointer?
        let status = Self.withSessionInfo(info, script: script) { cInfo in
            abrl_session_open(engine.handle, compiled, cInfo, &opened)
        }
        guard status == Int32(ABRL_OK), let opened else {
            throw script.location.error(status: status, message: engine.message, phase: "starting the session")
        }
        self.script = script
        self.engine = engine
        self.handle = opened
        self.levelCount = info.video.levelCount
        self.ladderBitrates = info.video.ladder.map(\.bitrate)
        if info.segmentBufferPlayer == .dashjs { advisor = try DashJSAdvisor(info) }
    }

    /// Off the engine's thread the Lua side is left alone; it goes when the engine closes,
    /// at once when this session held the engine's last reference.
    deinit {
        if engine.isOnOwnThread || isKnownUniquelyReferenced(&engine) {
            abrl_session_close(handle)
        } else {
            abrl_session_abandon(handle)
        }
    }

    /// The 0-based level `choose(ctx)` picks, and the delay it asks for before the request.
    func choose(_ context: DecisionContext) throws(InputError) -> RequestDecision {
        try checkThread()
        var decision = abrl_decision(
            segment_index: Int64(context.segmentIndex),
            last_level: Int64(context.lastLevel ?? -1),
            stall_count: Int64(context.stallCount),
            buffer_s: context.bufferSeconds,
            rebuffer_s: context.rebufferSeconds,
            elapsed_s: context.elapsedSeconds,
            estimate_kbps: context.estimateKbps,
            throughput_estimate_kbps: context.throughputEstimateKbps ?? .nan,
            latency_estimate_s: context.latencyEstimateSeconds ?? .nan,
            network_quality: Int32(context.networkQuality.rawValue),
            live: nil,
            dashjs: nil
        )
        var level: Int64 = 0
        var delay = 0.0
        var rate = Double.nan
        let status: Int32
        if let advice = try advisor?.advise(context) {
            var dashjs = Self.dashjs(advice)
            status = withUnsafePointer(to: &dashjs) { cDashJS in
                decision.dashjs = cDashJS
                return send(&decision, context.downloads, &level, &delay, &rate)
            }
        } else if let live = context.live {
            status = Self.withLive(live) { cLive in
                decision.live = cLive
                return send(&decision, context.downloads, &level, &delay, &rate)
            }
        } else {
            status = send(&decision, context.downloads, &level, &delay, &rate)
        }
        guard status == Int32(ABRL_OK) else {
            if status == Int32(ABRL_ERR_RESULT) {
                if engine.message.hasPrefix("a delay") || engine.message.hasPrefix("a playback rate") {
                    throw InputError(file: script.path, "choose returned \(engine.message)")
                }
                throw InputError(file: script.path, "choose returned \(engine.message); levels are 1…\(levelCount)")
            }
            throw script.location.error(status: status, message: engine.message, phase: "choose")
        }
        downloadsSent = context.downloads.count
        advisor?.requestStarts(atSeconds: context.elapsedSeconds + delay)
        return RequestDecision(level: Int(level), delaySeconds: delay, playbackRate: rate.isNaN ? nil : rate)
    }

    /// Calls the shim's choose with the downloads ctx has not seen yet.
    private func send(
        _ decision: inout abrl_decision, _ downloads: [DownloadRecord], _ level: inout Int64, _ delay: inout Double, _ rate: inout Double
    ) -> Int32 {
        let first = min(downloadsSent, downloads.count)
        switch downloads.count - first {
        case 0:
            return abrl_session_choose(handle, &decision, Int64(first), nil, 0, &level, &delay, &rate)
        case 1:
            var record = Self.record(downloads[first])
            return abrl_session_choose(handle, &decision, Int64(first), &record, 1, &level, &delay, &rate)
        default:
            let records = downloads[first...].map(Self.record)
            return records.withUnsafeBufferPointer { buffer in
                abrl_session_choose(handle, &decision, Int64(first), buffer.baseAddress, buffer.count, &level, &delay, &rate)
            }
        }
    }

    /// Calls `check_abandon(progress)`: the 0-based lower level it asks for, or the recheck it
    /// asks for with `nil`.
    func answerAbandonment(_ progress: DownloadProgress) throws(InputError) -> AbandonmentAnswer {
        try checkThread()
        var cProgress = abrl_progress(
            segment_index: Int64(progress.segmentIndex), level: Int64(progress.level), size_bytes: progress.sizeBytes,
            received_bytes: progress.receivedBytes, elapsed_s: progress.elapsedSeconds,
            ttfb_s: progress.timeToFirstByteSeconds, buffer_s: progress.bufferSeconds
        )
        var level: Int64 = 0
        var hasLevel: Int32 = 0
        var recheck = abrl_recheck()
        let status = abrl_session_check_abandon(handle, &cProgress, &level, &hasLevel, &recheck)
        guard status == Int32(ABRL_OK) else {
            throw script.location.error(status: status == Int32(ABRL_ERR_RESULT) ? Int32(ABRL_ERR_RUNTIME) : status, message: engine.message, phase: "check_abandon")
        }
        if hasLevel != 0 { return .abandon(to: Int(level)) }
        return AbandonmentAnswer(recheck: AbandonmentRecheck(elapsedSeconds: recheck.elapsed_s, projectedSeconds: recheck.projected_s))
    }

    /// Where `check_abandon` is defined, `file:line` (a module's file when a module defines
    /// it); nil when the script has none or Lua cannot tell.
    func checkAbandonLocation() -> String? {
        guard engine.isOnOwnThread else { return nil }
        var line: Int64 = 0
        guard abrl_session_check_abandon_source(handle, &line) == Int32(ABRL_OK), line > 0 else { return nil }
        let file = script.location.file(sourceLabel: engine.message) ?? script.path
        return "\(file):\(line)"
    }

    /// Calls `on_wait(wait)` when the script has one.
    func didWait(seconds: Double, bufferSeconds: Double) throws(InputError) {
        try checkThread()
        let status = abrl_session_on_wait(handle, seconds, bufferSeconds)
        guard status == Int32(ABRL_OK) else {
            throw script.location.error(status: status, message: engine.message, phase: "on_wait")
        }
    }

    /// Whether the script defines `on_playback`.
    var updatesPlayback: Bool { abrl_session_updates_playback(handle) != 0 }

    /// Calls `on_playback(playback)`: the rate it sets, `nil` to keep the one in force.
    func playbackDidUpdate(_ update: PlaybackUpdate) throws(InputError) -> Double? {
        try checkThread()
        var playback = abrl_playback(
            now_s: update.sessionSeconds, buffer_s: update.bufferSeconds, live_latency_s: update.latencySeconds,
            target_latency_s: update.targetLatencySeconds, playback_rate: update.playbackRate, playhead_s: update.playheadSeconds,
            live_edge_s: update.liveEdgeSeconds, segment_index: Int64(update.segmentIndex), chunks_arrived: Int64(update.chunksArrived),
            stalled: update.stalled ? 1 : 0
        )
        var rate = 0.0
        var hasRate: Int32 = 0
        let status = abrl_session_on_playback(handle, &playback, &rate, &hasRate)
        guard status == Int32(ABRL_OK) else {
            throw script.location.error(status: status == Int32(ABRL_ERR_RESULT) ? Int32(ABRL_ERR_RUNTIME) : status, message: engine.message, phase: "on_playback")
        }
        return hasRate != 0 ? rate : nil
    }

    /// Tells dash.js's view of the session (on the `dashjs` profile), then calls `on_download(report)`.
    func didDownload(_ record: DownloadRecord, context: DecisionContext) throws(InputError) {
        advisor?.didDownload(record, context: context)
        try didDownload(record, chunks: context.live?.lastChunks)
    }

    /// Calls `on_download(report)` when the script has one; `chunks` (live) are the download's.
    func didDownload(_ record: DownloadRecord, chunks: [ChunkRecord]?) throws(InputError) {
        try checkThread()
        var report = Self.record(record)
        let status: Int32
        if let chunks {
            let cChunks = chunks.map(Self.chunk)
            status = cChunks.withUnsafeBufferPointer { buffer in
                report.chunks = buffer.baseAddress
                report.chunk_count = buffer.count
                return abrl_session_on_download(handle, &report)
            }
        } else {
            status = abrl_session_on_download(handle, &report)
        }
        guard status == Int32(ABRL_OK) else {
            throw script.location.error(status: status, message: engine.message, phase: "on_download")
        }
    }

    /// Asks a seed-form script one question; `nil` means no switch.
    func ask(_ question: LuaBitrateQuestion, currentBitrate: Int, value: Double, quality: NetworkQuality) throws(InputError) -> Int? {
        try checkThread()
        var bitrate: Int64 = 0
        var answered: Int32 = 0
        let status = abrl_session_seed(
            handle, question.code, Int64(currentBitrate), value, Int32(quality.rawValue), &bitrate, &answered
        )
        guard status == Int32(ABRL_OK) else {
            if status == Int32(ABRL_ERR_RESULT) {
                let ladder = ladderBitrates.map(String.init).joined(separator: ", ")
                let expected = question == .initial ? "" : "nil or "
                throw InputError(file: script.path, "\(question.name) returned \(engine.message); expected \(expected)a ladder bitrate in bits/s (\(ladder))")
            }
            throw script.location.error(status: status, message: engine.message, phase: question.name)
        }
        return answered != 0 ? Int(bitrate) : nil
    }

    private func checkThread() throws(InputError) {
        guard engine.isOnOwnThread else {
            throw InputError(file: script.path, "a Lua session must run on the thread that set it up")
        }
    }

    private static func record(_ download: DownloadRecord) -> abrl_download {
        abrl_download(
            segment_index: Int64(download.segmentIndex),
            level: Int64(download.level),
            size_bytes: Int64(download.sizeBytes),
            abandoned_to_level: Int64(download.abandonedToLevel ?? -1),
            download_time_s: download.downloadTimeSeconds,
            throughput_kbps: download.throughputKbps,
            rebuffer_s: download.rebufferSeconds,
            buffer_s: download.bufferSeconds,
            wait_s: download.waitSeconds,
            latency_s: download.latencySeconds,
            received_bytes: download.receivedBytes,
            abandoned: download.abandoned ? 1 : 0,
            replacement: download.isReplacement ? 1 : 0,
            chunks: nil,
            chunk_count: 0
        )
    }

    private static func chunk(_ chunk: ChunkRecord) -> abrl_chunk {
        abrl_chunk(
            size_bytes: Int64(chunk.sizeBytes), available_s: chunk.availableSeconds,
            first_byte_s: chunk.firstByteSeconds, arrival_s: chunk.arrivalSeconds
        )
    }

    /// dash.js's view as the shim reads it: 0-based levels, -1 and NaN for none.
    private static func dashjs(_ advice: DashJSAdvisor.Advice) -> abrl_dashjs {
        let phase: Int32 = switch advice.bolaPhase {
        case .startup: 0
        case .steady: 1
        case .oneBitrate: 2
        case nil: -1
        }
        return abrl_dashjs(
            level: Int64(advice.level), throughput_rule_level: Int64(advice.throughputRuleLevel ?? -1),
            bola_level: Int64(advice.bolaLevel ?? -1), insufficient_buffer_level: Int64(advice.insufficientBufferLevel ?? -1),
            switch_history_level: Int64(advice.switchHistoryLevel ?? -1), throughput_kbps: advice.averageThroughputKbps ?? .nan,
            safe_throughput_kbps: advice.safeAverageThroughputKbps ?? .nan, latest_throughput_kbps: advice.latestThroughputKbps ?? .nan,
            buffer_s: advice.bufferLevelSeconds,
            bola_placeholder_s: advice.bolaPlaceholderSeconds ?? .nan, bola_delay_s: advice.bolaDelaySeconds,
            bola_active: advice.usesBola ? 1 : 0, bola_phase: phase
        )
    }

    /// Lays a live state out for the shim for the duration of `body`.
    private static func withLive(_ live: LiveState, _ body: (UnsafePointer<abrl_live>) -> Int32) -> Int32 {
        let chunks = live.lastChunks.map(chunk)
        return chunks.withUnsafeBufferPointer { buffer in
            var cLive = abrl_live(
                latency_s: live.latencySeconds, target_latency_s: live.targetLatencySeconds,
                playback_rate: live.playbackRate, live_edge_s: live.liveEdgeSeconds, playhead_s: live.playheadSeconds,
                chunk_duration_s: live.chunkDurationSeconds, chunks: buffer.baseAddress, chunk_count: buffer.count
            )
            return body(&cLive)
        }
    }
}
