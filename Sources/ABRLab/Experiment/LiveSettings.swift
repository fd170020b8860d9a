import Foundation

/// The parameters of the `live` profile: a live encoder producing CMAF chunks, a player that
/// joins at a target latency behind the live edge, and dash.js's default catch-up.
///
/// Segment k (duration d) is produced in chunks of duration c = d / `chunksPerSegment(segmentSeconds:)`;
/// chunk j of segment k exists from media time k·d + (j+1)·c, i.e. session time
/// k·d + (j+1)·c − target latency (the stream started one target latency before the player joined).
public struct LiveSettings: Equatable, Sendable {
    /// Live latency the player joins at and the catch-up aims for, seconds.
    public var targetLatencySeconds: Double
    /// Media the session plays, seconds; `nil` plays one pass of the trace.
    public var durationSeconds: Double?
    /// Nominal chunk duration, seconds: one frame at 30 fps by default. Segments split into the
    /// nearest whole number of chunks (at least one), so the actual chunk duration divides the
    /// segment exactly (0.5 s segments: 15 chunks of 33.3 ms).
    public var chunkSeconds: Double
    /// Whether the player's own catch-up sets the playback rate when the strategy does not.
    public var catchUp: Bool
    /// Which dash.js's catch-up rules set the rate (`--catchup`).
    public var catchUpRule: CatchupRule
    /// dash.js `liveCatchup.playbackRate.min`: the most the rate may drop below 1 (as a negative offset).
    public var catchUpRateMin: Double
    /// dash.js `liveCatchup.playbackRate.max`: the most the rate may rise above 1.
    public var catchUpRateMax: Double
    /// dash.js `liveCatchup.maxDrift` (12 s by default): with catch-up on, a latency more than this
    /// over the target makes the player seek to the live edge at the target latency; 0 never seeks.
    public var maxDriftSeconds: Double
    /// Share of the trace's bandwidth that carries chunk bytes.
    public var payloadFraction: Double
    /// Request latency of each segment: the trace's by default, none when it has none.
    public var latency: EmulationProfile.Latency
    /// Whether the trace moves on during the request latency (no data flows then).
    public var latencyConsumesTraceTime: Bool
    /// Playback starts once this much is buffered (0: with the first chunk).
    public var startupThresholdSeconds: Double
    /// A warm-up before the trace's pattern, which then plays to its end; `nil` joins at the
    /// pattern's start and plays media for the trace's length (its last target latency unused).
    public var warmup: LiveWarmup?

    public init(
        targetLatencySeconds: Double = 1.5, durationSeconds: Double? = nil, chunkSeconds: Double = 1.0 / 30,
        catchUp: Bool = true, catchUpRule: CatchupRule = .dashjs5, catchUpRateMin: Double = -0.5, catchUpRateMax: Double = 0.5, maxDriftSeconds: Double = 12,
        payloadFraction: Double = 1, latency: EmulationProfile.Latency = .trace(fallbackSeconds: 0),
        latencyConsumesTraceTime: Bool = true, startupThresholdSeconds: Double = 0, warmup: LiveWarmup? = nil
    ) {
        self.targetLatencySeconds = targetLatencySeconds
        self.durationSeconds = durationSeconds
        self.chunkSeconds = chunkSeconds
        self.catchUp = catchUp
        self.catchUpRule = catchUpRule
        self.catchUpRateMin = catchUpRateMin
        self.catchUpRateMax = catchUpRateMax
        self.maxDriftSeconds = maxDriftSeconds
        self.payloadFraction = payloadFraction
        self.latency = latency
        self.latencyConsumesTraceTime = latencyConsumesTraceTime
        self.startupThresholdSeconds = startupThresholdSeconds
        self.warmup = warmup
    }

    /// Lowest and highest playback rate a strategy may ask for (dash.js's limits on the catch-up
    /// offsets, −0.5 and +1).
    public static let playbackRateRange: ClosedRange<Double> = 0.5...2

    /// Chunks per segment of `segmentSeconds`.
    public func chunksPerSegment(segmentSeconds: Double) -> Int {
        max(1, Int((segmentSeconds / chunkSeconds).rounded()))
    }

    /// The actual chunk duration for segments of `segmentSeconds`.
    public func chunkDuration(segmentSeconds: Double) -> Double {
        segmentSeconds / Double(chunksPerSegment(segmentSeconds: segmentSeconds))
    }

    /// Segments a session plays over a trace lasting `traceSeconds`: enough media for the live
    /// duration (one pass of the trace by default). With a warm-up, enough that the encoder
    /// finishes the last segment when the pattern (or the live duration after the warm-up)
    /// ends: the warm-up, the pattern and the target latency. Counts past 10¹² come out as
    /// 10¹², which no session can play, so a trace of any length gives a count instead of a trap.
    public func segmentCount(segmentSeconds: Double, traceSeconds: Double) -> Int {
        var media = durationSeconds ?? traceSeconds
        if let warmup { media += warmup.seconds + targetLatencySeconds }
        return max(1, Int(min((media / segmentSeconds).rounded(.up), 1e12)))
    }

    /// Checks the values, naming the option that sets each.
    public func validate() throws(InputError) {
        try Setting.targetLatencyS.check(targetLatencySeconds)
        if let durationSeconds { try Setting.liveDurationS.check(durationSeconds) }
        guard chunkSeconds.isFinite, chunkSeconds > 0 else {
            throw InputError(setting: .profile, "the live chunk duration must be a positive number of seconds")
        }
        guard catchUpRateMin.isFinite, catchUpRateMin >= -0.5, catchUpRateMin <= 0,
              catchUpRateMax.isFinite, catchUpRateMax >= 0, catchUpRateMax <= 1 else {
            throw InputError(setting: .profile, "live catch-up rate offsets must lie in −0.5…0 and 0…1")
        }
        guard maxDriftSeconds.isFinite, maxDriftSeconds >= 0 else {
            throw InputError(setting: .profile, "the live maximum drift must be a number of seconds ≥ 0")
        }
        if case .dashjs3(let minDrift) = catchUpRule {
            try Setting.catchupMinDriftS.check(minDrift)
        }
        try warmup?.validate()
        // The warm-up, the target latency and the live duration are media a session must play
        // within the session limit; checked here so the setting is named, not every session.
        if let warmup {
            let room = EmulationProfile.defaultMaxSessionSeconds - targetLatencySeconds - (durationSeconds ?? 0)
            guard warmup.seconds < room else {
                let others: InputText = durationSeconds.map { "the target latency and \(Setting.liveDurationS) (\(NumberText.readable(targetLatencySeconds + $0)) s)" }
                    ?? "the target latency (\(NumberText.readable(targetLatencySeconds)) s)"
                throw InputError(
                    setting: .warmupS,
                    "must be under \(NumberText.readable(max(0, room))) s here: with \(others) the session would pass its limit of \(NumberText.readable(EmulationProfile.defaultMaxSessionSeconds)) s"
                )
            }
        }
    }
}
