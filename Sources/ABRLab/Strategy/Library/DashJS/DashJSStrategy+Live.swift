// The dashjs strategies on a low-latency live stream (`live` profile): dash.js 5.1.1's CatchupController drives the
// playback rate at every timeupdate, each evaluation a `kind: "catchup"` record replayed like the decisions
// (CatchupController.js:180-243, 339-363; spec D, E.2). The rate it answers is the rate the engine plays at: every
// decision hands it back, so the engine's own catch-up (`--catchup`) never sets one. Its seek to the live edge past
// maxDrift (`_startPlaybackCatchUp`, :195-213) is the engine's, made when the segment under way has arrived.

extension DashJSStrategy {
    public var updatesPlayback: Bool { live != nil }

    public mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double? {
        guard live?.isTimeUpdate(update) == true, let liveDelaySeconds = live?.liveDelaySeconds else { return nil }
        var built = browser!.catchupRecord(atSeconds: update.sessionSeconds, bufferSeconds: update.bufferSeconds, currentId: current)
        DashJSBrowser.addLive(&built, latencySeconds: update.latencySeconds, playbackRate: update.playbackRate,
                              timeSeconds: update.playheadSeconds)
        let answer = try run(built)
        guard let rate = answer.newRate else {
            // No new rate past maxDrift, with no seek under way, is the controller's seek (the replay holds it pending
            // until PLAYBACK_SEEKED, so later timeupdates change nothing meanwhile).
            let maxDrift = DashJSCatchupController.maxDrift(DashJSSettings())
            if DashJSBrowser.liveLatency(update.latencySeconds) - liveDelaySeconds > maxDrift, live?.seekUnderWay == false {
                live!.seekToTell = true
                live!.seekUnderWay = true
            }
            return nil
        }
        live!.playbackRate = rate
        return rate
    }

    public mutating func takeSeekToLive() -> Bool {
        guard live?.seekToTell == true else { return false }
        live!.seekToTell = false
        return true
    }

    /// A live segment arrived; the engine made the seek asked for while it was under way.
    mutating func downloadedLive(_ record: DownloadRecord, context: DecisionContext, representationId: String) {
        let seekSeconds = live?.seekUnderWay == true ? context.live?.playheadSeconds : nil
        if seekSeconds != nil { live!.seekUnderWay = false }
        browser!.downloadedLive(record, representationId: representationId, endSeconds: context.elapsedSeconds,
                                bufferSeconds: context.bufferSeconds, seekSeconds: seekSeconds)
    }
}
