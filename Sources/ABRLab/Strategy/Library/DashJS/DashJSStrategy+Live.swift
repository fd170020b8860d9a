// The dashjs strategies on a low-latency live stream (`live` profile): dash.js 5.1.1's CatchupController drives the
// playback rate at every timeupdate, each evaluation a `kind: "catchup"` record replayed like the decisions
// (CatchupController.js:180-243, 339-363; spec D, E.2). The rate it answers is the rate the engine plays at: every
// decision hands it back, so the engine's own catch-up (`--catchup`) never sets one.

extension DashJSStrategy {
    public var updatesPlayback: Bool { live != nil }

    public mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double? {
        guard live?.isTimeUpdate(update) == true, let liveDelaySeconds = live?.liveDelaySeconds else { return nil }
        var built = browser!.catchupRecord(atSeconds: update.sessionSeconds, bufferSeconds: update.bufferSeconds, currentId: current)
        DashJSBrowser.addLive(&built, latencySeconds: update.latencySeconds, playbackRate: update.playbackRate,
                              timeSeconds: update.playheadSeconds)
        let answer = try run(built)
        guard let rate = answer.newRate else {
            // `_startPlaybackCatchUp` seeks to the live edge past maxDrift; the live engine seeks only under its own
            // catch-up, so such a session is refused rather than played on with catch-up stopped.
            let maxDrift = DashJSCatchupController.maxDrift(DashJSSettings())
            let drift = DashJSBrowser.liveLatency(update.latencySeconds) - liveDelaySeconds
            if drift > maxDrift {
                let atSeconds = NumberText.readable((update.sessionSeconds * 1000).rounded() / 1000)
                throw InputError(file: sessionKey, "dash.js seeks to the live edge at \(atSeconds) s (latency more than maxDrift \(NumberText.readable(maxDrift)) s over the target), which the live engine does not play under a strategy's rate")
            }
            return nil
        }
        live!.playbackRate = rate
        return rate
    }
}
