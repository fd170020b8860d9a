import Foundation

/// The request-level mechanics of the `live` buffer on the `chunked` network: each segment is
/// requested once the encoder starts it, and its chunks arrive no earlier than they exist.
extension SessionState {
    /// One request: the strategy's rate takes effect, an optional idle delay, the wait until the
    /// segment is announced, the request latency, then chunk by chunk: wait for the encoder when
    /// the chunk does not exist yet, transfer it over the trace, append it to the buffer.
    mutating func requestOnLiveBuffer(index: Int, decision: RequestDecision) throws(EmulationError) {
        guard var live else { return }
        self.live = nil
        defer { self.live = live }
        live.player.strategyRate = decision.playbackRate
        live.player.updateRate()
        if decision.delaySeconds > 0 { try idleLive(&live, until: live.player.nowSeconds + decision.delaySeconds) }
        try idleLive(&live, until: live.availableAt(segment: index, chunk: 0) - live.chunkSeconds)

        let level = decision.level
        let bitrateKbps = video.ladder[level].bitrateKbps
        let startSeconds = live.player.nowSeconds
        let bufferBefore = live.player.bufferSeconds
        let latencySeconds: Double
        switch latency {
        case .fixed(let seconds): latencySeconds = seconds
        case .trace(let fallback): latencySeconds = cursor.currentLatencySeconds ?? fallback
        }
        if latencyConsumesTraceTime { try advanceCursor(milliseconds: latencySeconds * 1000, fromMs: startSeconds * 1000) }
        live.player.advance(to: startSeconds + latencySeconds)

        let sizeBytes = video.sizeBytes(segment: index, level: level)
        var chunks: [ChunkRecord] = []
        chunks.reserveCapacity(live.chunksPerSegment)
        var productionWait = 0.0
        var rebuffer = 0.0
        for (chunk, bytes) in live.chunkSizes(segmentBytes: sizeBytes).enumerated() {
            try spendStep()
            let available = live.availableAt(segment: index, chunk: chunk)
            if live.player.nowSeconds < available {
                productionWait += available - live.player.nowSeconds
                try idleLive(&live, until: available)
            }
            let firstByte = live.player.nowSeconds
            let limitSeconds = profile.maxSessionSeconds - firstByte
            let transfer: Double
            do {
                transfer = try cursor.download(sizeBytes: Double(bytes), payloadFraction: payloadFraction, limitSeconds: limitSeconds)
            } catch {
                throw stopped(error)
            }
            guard firstByte + transfer <= profile.maxSessionSeconds else { throw stopped(.timeLimit) }
            let arrival = firstByte + transfer
            live.player.advance(to: arrival)
            let rate = live.player.rate
            live.player.append(mediaEndSeconds: live.mediaEnd(segment: index, chunk: chunk))
            let stall = live.player.takeRebuffer()
            rebuffer += stall
            live.samples.append(LiveChunkSample(
                segmentIndex: index, chunkIndex: chunk, sessionSeconds: arrival, bitrateKbps: bitrateKbps,
                rebufferSeconds: stall, latencySeconds: live.player.latencySeconds, playbackRate: rate
            ))
            chunks.append(ChunkRecord(index: chunk, sizeBytes: bytes, availableSeconds: available, firstByteSeconds: firstByte, arrivalSeconds: arrival))
        }
        let endSeconds = live.player.nowSeconds
        // dash.js seeks when the drift passes maxDrift; checked when a segment has arrived.
        live.nextSegment = index + 1
        var seeked = false
        if live.player.driftsBeyond(live.settings.maxDriftSeconds) {
            let playhead = live.player.seekToLive()
            live.nextSegment = max(index + 1, Int((playhead / live.segmentSeconds + 1e-9).rounded(.down)))
            live.seeks += 1
            seeked = true
        }
        let downloadSeconds = endSeconds - startSeconds
        let transferMs = chunks.reduce(0) { $0 + $1.transferSeconds } * 1000
        let throughputKbps = ChunkThroughput.kbps(chunks)
            ?? (transferMs > 0 ? Double(sizeBytes) * 8 / transferMs : Double(sizeBytes) * 8 / max(downloadSeconds, 1e-9) / 1000)
        syncLive(&live)
        if transferMs > 0 {
            sampleThroughput(transferMs: transferMs, bits: throughputKbps * transferMs, latencyMs: latencySeconds * 1000, first: index == 0, keep: true)
        }
        estimator.recordSample(
            bytes: UInt64(sizeBytes), duration: Double(sizeBytes) * 8 / (throughputKbps * 1000),
            at: Date(timeIntervalSinceReferenceDate: endSeconds)
        )
        estimateBitsPerSecond = estimator.estimatedBandwidth(at: Date(timeIntervalSinceReferenceDate: endSeconds))

        let bufferAfter = live.player.bufferSeconds
        var row = SegmentRecord(
            index: index, level: level, bitrateKbps: bitrateKbps, sizeBytes: sizeBytes,
            downloadStartSeconds: startSeconds, downloadEndSeconds: endSeconds, downloadTimeSeconds: downloadSeconds,
            latencySeconds: latencySeconds, throughputKbps: throughputKbps, bufferBeforeSeconds: bufferBefore,
            bufferAfterSeconds: bufferAfter, rebufferSeconds: rebuffer, waitSeconds: 0,
            bufferState: BufferState(bufferSeconds: bufferAfter), estimateKbps: estimateBitsPerSecond / 1000,
            networkQuality: NetworkQuality(bitsPerSecond: estimateBitsPerSecond)
        )
        row.live = LiveSegmentStats(
            latencySeconds: live.player.latencySeconds, playbackRate: live.player.rate,
            playheadSeconds: live.player.playheadSeconds, productionWaitSeconds: productionWait, seekedToLive: seeked
        )
        segments.append(row)
        downloads.append(DownloadRecord(
            segmentIndex: index, level: level, sizeBytes: sizeBytes, downloadTimeSeconds: downloadSeconds,
            throughputKbps: throughputKbps, rebufferSeconds: rebuffer, bufferSeconds: bufferAfter, waitSeconds: 0,
            latencySeconds: latencySeconds
        ))
        live.lastChunks = chunks
        lastLevel = level
    }

    /// Lets time pass with nothing downloading until session time `seconds` (nothing when it is
    /// past); a wait past the session's time limit is its error.
    private mutating func idleLive(_ live: inout LiveSessionState, until seconds: Double) throws(EmulationError) {
        let now = live.player.nowSeconds
        guard seconds > now else { return }
        guard seconds <= profile.maxSessionSeconds else { throw stopped(.timeLimit) }
        try advanceCursor(milliseconds: (seconds - now) * 1000, fromMs: now * 1000)
        live.player.advance(to: seconds)
    }

    /// Copies the player's counters into the session's and stamps its events on the state machine.
    private mutating func syncLive(_ live: inout LiveSessionState) {
        let player = live.player
        elapsedMs = player.nowSeconds * 1000
        bufferMs = player.bufferSeconds * 1000
        stallCount = player.stallCount
        stallMs = player.stallSeconds * 1000
        rebufferMs = stallMs
        startupMs = player.startupSeconds * 1000
        playing = player.playing
        playbackStartMs = player.playbackStartSeconds.map { $0 * 1000 }
        for event in player.events { stamp(event.seconds * 1000).send(event.action) }
        live.player.events = []
        clock.elapsedSeconds = elapsedMs / 1000
    }

    /// Plays out the live buffer after the last segment; returns the end in milliseconds.
    mutating func finishLive() -> Double {
        guard var live else { return elapsedMs }
        let end = live.player.playOut()
        self.live = live
        return end * 1000
    }
}
