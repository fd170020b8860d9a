/// The request-level mechanics of the `segments` buffer on the `sabre` network, in the order of
/// Sabre's session loop (Spiteri, Nguyen, Sitaraman, MMSys 2018, doi:10.1145/3204949.3204953).
extension SessionState {
    /// Sabre's progress step: at least this many bits and milliseconds between abandonment checks.
    static let progressStepBits = 12_000.0
    static let progressStepMs = 50.0

    /// Waits before a request until a whole segment fits under the maximum buffer; returns the
    /// wait in milliseconds, 0 when none was needed.
    mutating func waitForRoom() throws(EmulationError) -> Double {
        guard var buffer = segmentBuffer, var link, playing else { return 0 }
        let waitMs = buffer.levelMs + segmentMs - maxBufferMs
        guard waitMs > 0 else { return 0 }
        // The state gives up its copies while they change, so their arrays are not copied on write.
        segmentBuffer = nil
        self.link = nil
        defer {
            segmentBuffer = buffer
            self.link = link
        }
        drain(&buffer, waitMs, link: link)
        try walk { () throws(TraceWalkStop) in try link.idle(milliseconds: waitMs) }
        advertise(&buffer, link: &link)
        elapsedMs = buffer.playTimeMs
        if var last = segments.popLast() {
            last.waitSeconds += waitMs / 1000
            segments.append(last)
        }
        return waitMs
    }

    /// One request: an optional idle delay, then the download (in progress steps with
    /// abandonment checks after the first segment), then the buffer plays out its time.
    mutating func requestOnSegmentBuffer(
        index: Int, decision: RequestDecision, check: (DownloadProgress) throws(EmulationError) -> AbandonmentAnswer
    ) throws(EmulationError) -> Bool {
        guard var buffer = segmentBuffer, var link else { return false }
        segmentBuffer = nil
        self.link = nil
        defer {
            segmentBuffer = buffer
            self.link = link
        }
        let first = !playing
        let replaceOffset = first ? nil : replacementOffset(for: decision.level, in: buffer)
        let target = replaceOffset.map { index + $0 } ?? index
        let delayMs = replaceOffset == nil ? decision.delaySeconds * 1000 : 0
        if delayMs > 0 {
            if first { buffer.addStartup(milliseconds: delayMs) } else { drain(&buffer, delayMs, link: link) }
            try walk { () throws(TraceWalkStop) in try link.idle(milliseconds: delayMs) }
            advertise(&buffer, link: &link)
        }

        let level = decision.level
        let sizeBits = video.sizeBits(segment: target, level: level)
        let startMs = buffer.playTimeMs
        let bufferAtStartMs = buffer.levelMs
        let ttfbMs = try walk { () throws(TraceWalkStop) in try link.payLatency() }
        var elapsedMs = ttfbMs
        var receivedBits = 0.0
        var abandonedTo: Int?
        var abandoned = false
        if segmentSettings.abandonment && !first {
            var minMs = Self.progressStepMs - ttfbMs
            var recheck = AbandonmentRecheck.nextStep
            while true {
                let step = try walk { () throws(TraceWalkStop) in
                    try link.spendStep()
                    return try link.progressStep(restBits: sizeBits - receivedBits, minBits: Self.progressStepBits, minMs: minMs)
                }
                minMs = Self.progressStepMs
                receivedBits += step.bits
                elapsedMs += step.ms
                if elapsedMs > maxSessionMs { throw .sessionTimeLimit(trace: trace.name, limitSeconds: profile.maxSessionSeconds) }
                guard receivedBits < sizeBits else { break }
                if let offset = replaceOffset {
                    if max(0, bufferAtStartMs - elapsedMs) + segmentMs * Double(offset) <= 0 {
                        abandoned = true
                        break
                    }
                    continue
                }
                let progress = DownloadProgress(
                    segmentIndex: target, level: level, sizeBytes: sizeBits / 8, receivedBytes: receivedBits / 8,
                    elapsedSeconds: elapsedMs / 1000, timeToFirstByteSeconds: ttfbMs / 1000,
                    bufferSeconds: max(0, bufferAtStartMs - elapsedMs) / 1000
                )
                guard !segmentSettings.honoursRechecks || recheck.isDue(progress) else { continue }
                let answer = try check(progress)
                if let lower = answer.level {
                    abandoned = true
                    abandonedTo = lower
                    break
                }
                recheck = answer.recheck
            }
        } else {
            elapsedMs = try ttfbMs + walk { () throws(TraceWalkStop) in try link.transfer(bits: sizeBits) }
            receivedBits = sizeBits
        }
        advertise(&buffer, link: &link)
        if first {
            buffer.addStartup(milliseconds: elapsedMs)
            startupMs = buffer.playTimeMs
        } else {
            drain(&buffer, elapsedMs, link: link)
        }
        guard buffer.playTimeMs <= maxSessionMs else {
            throw .sessionTimeLimit(trace: trace.name, limitSeconds: profile.maxSessionSeconds)
        }

        var delivered = false
        if !abandoned {
            if let offset = replaceOffset {
                if buffer.levelMs + segmentMs * Double(offset) >= 0 {
                    let previous = buffer.level(fromEnd: offset)
                    buffer.replace(fromEnd: offset, level: level)
                    noteReplacement(segment: target, from: previous, to: level)
                }
            } else {
                buffer.append(level: level)
                delivered = true
            }
            if stalled {
                stalled = false
                stamp(buffer.playTimeMs).send(.didFinishBuffering)
            }
        }
        if first, delivered {
            playing = true
            playbackStartMs = buffer.playTimeMs
            stamp(buffer.playTimeMs).send(.didBecomeReady)
            machine.send(.play)
        }
        self.elapsedMs = buffer.playTimeMs

        sampleThroughput(transferMs: elapsedMs - ttfbMs, bits: receivedBits, latencyMs: ttfbMs, first: first, keep: !abandoned)

        let record = DownloadRecord(
            segmentIndex: target, level: level, sizeBytes: video.sizeBytes(segment: target, level: level),
            downloadTimeSeconds: elapsedMs / 1000, throughputKbps: receivedBits / elapsedMs,
            rebufferSeconds: 0, bufferSeconds: buffer.levelMs / 1000, waitSeconds: 0, abandoned: abandoned,
            abandonedToLevel: abandonedTo, isReplacement: replaceOffset != nil, latencySeconds: ttfbMs / 1000,
            receivedBytes: receivedBits / 8
        )
        recordSegmentRequest(record, delivered: delivered, startMs: startMs, bufferBeforeMs: bufferAtStartMs, wastedBits: abandoned ? receivedBits : 0)
        return delivered
    }

    /// Where a replacement goes: the negative offset from the newest buffered segment of the
    /// first segment below `level`, scanning past the ones about to play; `nil` for none.
    private func replacementOffset(for level: Int, in buffer: SegmentBuffer) -> Int? {
        guard segmentSettings.replacement != .none else { return nil }
        let skip = Int((1.5 + buffer.playedOfHeadMs / segmentMs).rounded(.up))
        let levels = Array(buffer.bufferedLevels)
        guard skip < levels.count else { return nil }
        let positions: [Int] = segmentSettings.replacement == .left ? Array(skip..<levels.count) : Array((skip..<levels.count).reversed())
        guard let position = positions.first(where: { levels[$0] < level }) else { return nil }
        return position - levels.count
    }

    /// Drains the buffer, stamping the start of a stall on the state machine.
    private mutating func drain(_ buffer: inout SegmentBuffer, _ milliseconds: Double, link: NetworkLink) {
        let stallBefore = buffer.stallMs
        let levelBefore = buffer.levelMs
        let startMs = buffer.playTimeMs
        buffer.drain(milliseconds, sustainableLevel: link.sustainableLevel)
        let stall = buffer.stallMs - stallBefore
        guard stall > 0 else { return }
        unattributedStallMs += stall
        rebufferMs += stall
        stallMs += stall
        stallCount = buffer.stallEvents
        if !stalled {
            stalled = true
            stamp(startMs + levelBefore).send(.didStartBuffering)
        }
    }

    /// Hands the network's sustainable-level changes since the last call to the reaction tracker.
    private mutating func advertise(_ buffer: inout SegmentBuffer, link: inout NetworkLink) {
        for change in link.takeLevelChanges() {
            buffer.reactions.advertise(level: change.level, previous: change.previous, at: change.timeMs, buffered: buffer.bufferedLevels)
        }
    }

    /// Plays out what is buffered; returns the session's end in milliseconds.
    mutating func finishSegmentBuffer() -> Double {
        guard var buffer = segmentBuffer, let link else { return elapsedMs }
        let stallBefore = buffer.stallMs
        buffer.playOut(sustainableLevel: link.sustainableLevel)
        let stall = buffer.stallMs - stallBefore
        rebufferMs += stall
        stallMs += stall
        stallCount = buffer.stallEvents
        if stall > 0, var last = segments.popLast() {
            last.rebufferSeconds += stall / 1000
            segments.append(last)
        }
        segmentBuffer = buffer
        elapsedMs = buffer.playTimeMs
        return buffer.playTimeMs
    }
}
