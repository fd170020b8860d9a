/// The player of a live session: a playhead chasing a moving live edge over a buffer that grows
/// chunk by chunk, played at a variable rate.
///
/// Session time starts at 0 when the player joins; the stream's media time then is the target
/// latency, so the live edge (media time the encoder has reached) is `session time + target`.
/// Between events the playhead moves at the rate in force; when it reaches the end of the
/// buffer the player stalls until the next chunk arrives. Live latency = live edge − playhead,
/// so every second of stall or of start-up adds a second of latency, and playing faster than 1×
/// takes it back.
struct LivePlayer {
    let targetLatencySeconds: Double
    let startupThresholdSeconds: Double
    /// Session time the player has been advanced to.
    private(set) var nowSeconds = 0.0
    /// Media time of the playhead.
    private(set) var playheadSeconds = 0.0
    /// Media time of the end of the buffered media.
    private(set) var bufferedEndSeconds = 0.0
    private(set) var rate = 1.0
    /// The strategy's rate, held until its next decision; `nil` leaves the rate to the catch-up.
    var strategyRate: Double?
    private var catchup: CatchupController?
    private(set) var playing = false
    private(set) var stalled = false
    private(set) var startupSeconds = 0.0
    private(set) var playbackStartSeconds: Double?
    private(set) var stallCount = 0
    private(set) var stallSeconds = 0.0
    /// Stall time since the last call of `takeRebuffer()`.
    private var rebufferPending = 0.0
    /// State-machine events not yet stamped, in order.
    var events: [(seconds: Double, action: PlaybackAction)] = []

    init(settings: LiveSettings, startupThresholdSeconds: Double) {
        targetLatencySeconds = settings.targetLatencySeconds
        self.startupThresholdSeconds = startupThresholdSeconds
        catchup = settings.catchUp
            ? CatchupController(rateMin: settings.catchUpRateMin, rateMax: settings.catchUpRateMax, rule: settings.catchUpRule) : nil
    }

    /// Media time the encoder has reached now.
    var liveEdgeSeconds: Double { nowSeconds + targetLatencySeconds }
    var latencySeconds: Double { liveEdgeSeconds - playheadSeconds }
    var bufferSeconds: Double { bufferedEndSeconds - playheadSeconds }

    /// Lets time pass until session time `seconds`: playback (or start-up, or a stall) goes on.
    mutating func advance(to seconds: Double) {
        let elapsed = seconds - nowSeconds
        guard elapsed > 0 else { return }
        defer { nowSeconds = seconds }
        guard playing else {
            startupSeconds += elapsed
            return
        }
        guard !stalled else {
            stallSeconds += elapsed
            rebufferPending += elapsed
            return
        }
        let media = rate * elapsed
        let buffered = bufferedEndSeconds - playheadSeconds
        if media <= buffered {
            playheadSeconds += media
            return
        }
        let played = buffered / rate
        playheadSeconds = bufferedEndSeconds
        stalled = true
        stallCount += 1
        if let reset = catchup?.bufferDidEmpty(), strategyRate == nil { rate = reset }
        events.append((nowSeconds + played, .didStartBuffering))
        stallSeconds += elapsed - played
        rebufferPending += elapsed - played
    }

    /// A chunk ending at media time `mediaEndSeconds` arrived now: the buffer grows (a chunk
    /// wholly behind the playhead, as after a seek, adds nothing), a stall ends, playback starts
    /// once the start-up threshold is buffered, and the rate is updated.
    mutating func append(mediaEndSeconds: Double) {
        bufferedEndSeconds = max(bufferedEndSeconds, mediaEndSeconds)
        if stalled, bufferSeconds > 0 {
            stalled = false
            events.append((nowSeconds, .didFinishBuffering))
        }
        if !playing, bufferSeconds >= startupThresholdSeconds {
            playing = true
            playbackStartSeconds = nowSeconds
            events.append((nowSeconds, .didBecomeReady))
            events.append((nowSeconds, .play))
        }
        updateRate()
    }

    /// Sets the rate: the strategy's when it gave one, else the catch-up's, else 1.
    mutating func updateRate() {
        if let strategyRate {
            rate = strategyRate
        } else if catchup != nil {
            rate = catchup!.rate(
                current: rate, latencySeconds: latencySeconds, targetSeconds: targetLatencySeconds, bufferSeconds: bufferSeconds
            )
        } else {
            rate = 1
        }
    }

    /// Jumps to the live edge at the target latency, dropping what was buffered, as dash.js's
    /// `seekToCurrentLive`; returns the new playhead.
    mutating func seekToLive() -> Double {
        playheadSeconds = liveEdgeSeconds - targetLatencySeconds
        bufferedEndSeconds = playheadSeconds
        return playheadSeconds
    }

    /// Whether catch-up is on and the latency is more than `maxDrift` over the target.
    func driftsBeyond(_ maxDrift: Double) -> Bool {
        catchup != nil && strategyRate == nil && maxDrift > 0 && latencySeconds - targetLatencySeconds > maxDrift
    }

    /// Stall time since the previous call.
    mutating func takeRebuffer() -> Double {
        defer { rebufferPending = 0 }
        return rebufferPending
    }

    /// Plays out the buffer at the rate in force; returns the session time playback ends.
    mutating func playOut() -> Double {
        guard playing else { return nowSeconds }
        if stalled { return nowSeconds }
        let end = nowSeconds + bufferSeconds / rate
        playheadSeconds = bufferedEndSeconds
        nowSeconds = end
        return end
    }
}
