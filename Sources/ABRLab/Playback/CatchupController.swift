import Foundation

/// dash.js's default live catch-up: the playback rate that steers live latency toward the
/// target, as `_calculateNewPlaybackRateDefault` and `_startPlaybackCatchUp` compute it in
/// dash.js 5.x `src/streaming/controllers/CatchupController.js` (Dash-Industry-Forum/dash.js,
/// commit 02a46cb2), with the defaults of `src/streaming/models/MediaPlayerModel.js`
/// (`DEFAULT_CATCHUP_PLAYBACK_RATE_MIN` −0.5, `…_MAX` 0.5).
///
/// With drift Δ = latency − target and cpr = |min| when Δ < 0 else max, the rate is
/// `(1 − cpr) + 2·cpr / (1 + e^(−5Δ))`: 1 at the target, sliding toward 1 ± cpr as the drift
/// grows. After the buffer ran empty the controller holds 1 until the buffer is back above half
/// the target latency (dash.js's `playbackStalled`). A new rate is applied only when it differs
/// from the current one by at least `0.02 / (0.5 / max)`, or when it is exactly 1.
/// dash.js's seek on a drift beyond `maxDrift` is the player's (``LiveSettings/maxDriftSeconds``).
///
/// Under ``CatchupRule/dashjs3(minDriftSeconds:)`` it follows dash.js 3.0.1
/// `src/streaming/controllers/PlaybackController.js` instead: `onPlaybackProgression` calls
/// `stopPlaybackCatchUp` (rate exactly 1) while |Δ| ≤ `liveCatchUpMinDrift` (`needToCatchUp`),
/// else `startPlaybackCatchUp`: the same curve with cpr = `liveCatchUpPlaybackRate` on both
/// sides, where after an empty buffer (`onBufferLevelStateChanged`, which also resets the rate to
/// 1) a latency over the target keeps the rate at 1 until the buffer holds more than half the
/// target; a new rate applies when it differs from the current one by more than 0.02.
public struct CatchupController: Equatable, Sendable {
    /// The most the rate may drop below 1, as a negative offset (dash.js `playbackRate.min`).
    public var rateMin: Double
    /// The most the rate may rise above 1 (dash.js `playbackRate.max`).
    public var rateMax: Double
    /// Which dash.js's rules apply.
    public var rule: CatchupRule
    /// dash.js's `playbackStalled`: set when the buffer runs empty, cleared once it holds more
    /// than half the target latency.
    public private(set) var recovering = false

    public init(rateMin: Double = -0.5, rateMax: Double = 0.5, rule: CatchupRule = .dashjs5) {
        self.rateMin = rateMin
        self.rateMax = rateMax
        self.rule = rule
    }

    /// The buffer ran empty; returns the rate the player resets to then, if the rule resets it
    /// (dash.js 3.0.1's `stopPlaybackCatchUp`).
    @discardableResult
    public mutating func bufferDidEmpty() -> Double? {
        recovering = true
        if case .dashjs3 = rule { return 1 }
        return nil
    }

    /// The rate to play at now, given the rate in force, the live latency and target latency
    /// (seconds) and the buffer (seconds of media).
    public mutating func rate(current: Double, latencySeconds: Double, targetSeconds: Double, bufferSeconds: Double) -> Double {
        if case .dashjs3(let minDrift) = rule {
            // `getCurrentLiveLatency` reports whole milliseconds (`toFixed(3)`).
            let latency = (latencySeconds * 1000).rounded() / 1000
            return dashjs3Rate(current: current, drift: latency - targetSeconds, minDrift: minDrift, targetSeconds: targetSeconds, bufferSeconds: bufferSeconds)
        }
        if recovering, bufferSeconds > targetSeconds / 2 { recovering = false }
        let drift = latencySeconds - targetSeconds
        guard drift != 0, rateMax > 0 || rateMin < 0 else { return current }
        let newRate: Double
        if recovering {
            newRate = 1
        } else {
            let cpr = drift < 0 ? abs(rateMin) : rateMax
            newRate = (1 - cpr) + cpr * 2 / (1 + exp(-drift * 5))
        }
        let minChange = rateMax > 0 ? 0.02 / (0.5 / rateMax) : 0.02
        return abs(current - newRate) >= minChange || newRate == 1 ? newRate : current
    }

    /// dash.js 3.0.1's `needToCatchUp`, `startPlaybackCatchUp` and `stopPlaybackCatchUp`.
    private mutating func dashjs3Rate(current: Double, drift: Double, minDrift: Double, targetSeconds: Double, bufferSeconds: Double) -> Double {
        guard abs(drift) > minDrift, rateMax > 0 else { return 1 }
        var newRate = (1 - rateMax) + rateMax * 2 / (1 + exp(-drift * 5))
        if recovering {
            if bufferSeconds > targetSeconds / 2 {
                recovering = false
            } else if drift > 0 {
                newRate = 1
            }
        }
        return abs(current - newRate) > 0.02 ? newRate : current
    }
}
