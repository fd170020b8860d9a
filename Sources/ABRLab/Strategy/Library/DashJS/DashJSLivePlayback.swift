// dash.js 5.1.1's live playback as the dashjs strategies follow it on the `live` profile: the video element's
// timeupdate cadence, at which CatchupController evaluates the rate (PLAYBACK_TIME_UPDATED, CatchupController.js:89-90,
// 180-243), and the rate it set. Spec section D, G.3.

struct DashJSLivePlayback: Sendable {
    /// Chrome's timeupdate period while the element plays (the on-demand browser's buffer-level cadence).
    static let timeUpdateSeconds = 0.25

    /// `playbackController.getLiveDelay()`: the profile's target latency.
    let liveDelaySeconds: Double
    /// The rate dash.js's catch-up last set on the element (1 until it sets one).
    var playbackRate = 1.0
    /// The next timeupdate's session time; nil while the element is not playing (before start-up, stalled).
    private var nextTimeUpdateSeconds: Double?
    /// Catch-up asked to seek to the live edge: not yet told to the engine, and not yet made by it.
    var seekToTell = false
    var seekUnderWay = false

    init(liveDelaySeconds: Double) { self.liveDelaySeconds = liveDelaySeconds }

    /// Whether the engine's playback update is a timeupdate: the first update at or after each 250 ms of session time
    /// since playback (re)started. The engine updates at every chunk arrival and every chunk duration while a chunk is
    /// on its way, so a timeupdate falls at most that late. No timeupdate fires before playback or during a stall.
    mutating func isTimeUpdate(_ update: PlaybackUpdate) -> Bool {
        guard update.playheadSeconds > 0, !update.stalled else {
            nextTimeUpdateSeconds = nil
            return false
        }
        guard var next = nextTimeUpdateSeconds else {
            nextTimeUpdateSeconds = update.sessionSeconds + Self.timeUpdateSeconds
            return false
        }
        guard update.sessionSeconds >= next else { return false }
        while next <= update.sessionSeconds { next += Self.timeUpdateSeconds }
        nextTimeUpdateSeconds = next
        return true
    }
}
