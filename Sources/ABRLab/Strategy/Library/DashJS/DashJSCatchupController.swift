import Foundation

// dash.js 5.1.1's CatchupController: the live playback rate (streaming/controllers/CatchupController.js:138-416) with
// MediaPlayerModel's rates and drift limit (streaming/models/MediaPlayerModel.js:35-39, 82-183), default and
// LoL+ modes. Spec section D.

public struct DashJSCatchupController: Sendable {
    /// What the player tells the controller at a timeupdate.
    public struct Input: Sendable {
        public var isDynamic: Bool
        public var catchupEnabled: Bool
        public var isPaused: Bool
        public var isSeeking: Bool
        public var timeSeconds: Double
        public var currentLiveLatencySeconds: Double
        public var liveDelaySeconds: Double
        /// `playbackController.getBufferLevel()`.
        public var bufferLevelSeconds: Double
        public var playbackRate: Double
        /// `playbackController.getPlaybackStalled()`.
        public var playbackStalled: Bool

        public init(isDynamic: Bool, catchupEnabled: Bool, isPaused: Bool, isSeeking: Bool, timeSeconds: Double,
                    currentLiveLatencySeconds: Double, liveDelaySeconds: Double, bufferLevelSeconds: Double, playbackRate: Double,
                    playbackStalled: Bool) {
            self.isDynamic = isDynamic
            self.catchupEnabled = catchupEnabled
            self.isPaused = isPaused
            self.isSeeking = isSeeking
            self.timeSeconds = timeSeconds
            self.currentLiveLatencySeconds = currentLiveLatencySeconds
            self.liveDelaySeconds = liveDelaySeconds
            self.bufferLevelSeconds = bufferLevelSeconds
            self.playbackRate = playbackRate
            self.playbackStalled = playbackStalled
        }
    }

    public struct Outcome: Sendable, Equatable {
        /// The rate set on the video element; nil when unchanged.
        public var newRate: Double?
        public var seekToLive: Bool
    }

    /// The controller's own stall flag: set by a stalled buffer state, cleared once the buffer passes half the live delay.
    public private(set) var stalled = false
    private var seekInProgress = false
    /// CatchupController's minimum step is 0.25 on Safari; the harness reports Chrome.
    public var isSafari = false

    public init() {}

    /// BUFFER_LEVEL_STATE_CHANGED.
    public mutating func bufferStateChanged(isStalled: Bool) { stalled = isStalled }

    /// BUFFER_LEVEL_UPDATED, with the player's buffer level and live delay at that moment.
    public mutating func bufferLevelUpdated(playerBufferLevelSeconds: Double, liveDelaySeconds: Double) {
        if stalled && playerBufferLevelSeconds > liveDelaySeconds / 2 { stalled = false }
    }

    /// PLAYBACK_SEEKED.
    public mutating func seeked() { seekInProgress = false }

    /// `getCatchupPlaybackRates`: the settings' pair clamped to [−0.5, 0] and [0, 1] when either is set, else ±0.5.
    public static func rates(_ settings: DashJSSettings) -> (min: Double, max: Double) {
        let min = settings.catchupPlaybackRateMin ?? .nan
        let max = settings.catchupPlaybackRateMax ?? .nan
        if min.isNaN && max.isNaN { return (-0.5, 0.5) }
        let clampedMin = min.isNaN || min > 0 ? 0 : Swift.max(min, -0.5)
        let clampedMax = max.isNaN || max < 0 ? 0 : Swift.min(max, 1)
        return (clampedMin, clampedMax)
    }

    /// `getCatchupMaxDrift`: the setting when ≥ 0, else 12 s.
    public static func maxDrift(_ settings: DashJSSettings) -> Double {
        if let drift = settings.catchupMaxDriftSeconds, !drift.isNaN, drift >= 0 { return drift }
        return 12
    }

    static func isLoLPMode(_ settings: DashJSSettings) -> Bool {
        settings.catchupMode == "liveCatchupModeLoLP" && settings.catchupPlaybackBufferMinSeconds.map { !$0.isNaN } == true
    }

    /// `_onPlaybackProgression` on PLAYBACK_TIME_UPDATED.
    public mutating func playbackProgressed(_ input: Input, settings: DashJSSettings) -> Outcome {
        let none = Outcome(newRate: nil, seekToLive: false)
        let rates = Self.rates(settings)
        guard input.isDynamic, input.catchupEnabled, rates.max > 0 || rates.min < 0, !input.isPaused, !input.isSeeking else { return none }
        // `!getTime() > 0`: a zero (or NaN) time stops catch-up.
        guard input.timeSeconds != 0, !input.timeSeconds.isNaN, !seekInProgress else { return none }
        let drift = input.currentLiveLatencySeconds - input.liveDelaySeconds
        let lolp = Self.isLoLPMode(settings)
        let bufferMin = settings.catchupPlaybackBufferMinSeconds ?? .nan
        let needed = lolp ? (abs(drift) > 0 || input.bufferLevelSeconds < bufferMin) : abs(drift) > 0
        guard needed else { return none }
        let maxDrift = Self.maxDrift(settings)
        if !maxDrift.isNaN && maxDrift > 0 && drift > maxDrift {
            seekInProgress = true
            return Outcome(newRate: nil, seekToLive: true)
        }
        let newRate: Double
        if lolp {
            if input.bufferLevelSeconds < bufferMin {
                let cpr = abs(rates.min)
                newRate = (1 - cpr) + (cpr * 2) / (1 + JSMath.pow(M_E, -((input.bufferLevelSeconds - bufferMin) * 5)))
            } else if abs(input.currentLiveLatencySeconds - input.liveDelaySeconds) <= 0.02 * input.liveDelaySeconds {
                newRate = 1
            } else {
                newRate = Self.curve(drift: drift, rates: rates)
            }
        } else if stalled {
            newRate = 1
        } else {
            var rate = Self.curve(drift: drift, rates: rates)
            if input.playbackStalled && input.bufferLevelSeconds <= input.liveDelaySeconds / 2 && drift > 0 { rate = 1 }
            newRate = rate
        }
        let minChange = isSafari ? 0.25 : 0.02 / (0.5 / rates.max)
        // `newRate && …`: a zero or NaN rate is never applied.
        if (newRate != 0 && !newRate.isNaN && abs(input.playbackRate - newRate) >= minChange) || newRate == 1 {
            return Outcome(newRate: newRate, seekToLive: false)
        }
        return none
    }

    /// The logistic curve `(1 − cpr) + 2·cpr/(1 + e^(−5·drift))`, computed as upstream does with `Math.pow(Math.E, …)`, V8's bits (JSMath).
    static func curve(drift: Double, rates: (min: Double, max: Double)) -> Double {
        let cpr = drift < 0 ? abs(rates.min) : rates.max
        return (1 - cpr) + (cpr * 2) / (1 + JSMath.pow(M_E, -(drift * 5)))
    }
}
