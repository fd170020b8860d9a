/// Every mechanic and parameter of the player and network model, under one name.
///
/// Three profiles ship: ``pensieve`` reproduces Pensieve's `fixed_env.py` exactly, ``sabre``
/// reproduces Sabre's simulator, ``default`` is abrlab's own model (see ``default`` for its
/// choices). A profile picks mechanics (how the network is walked, how the buffer is kept, when
/// the player waits on a full buffer) and parameters; one session loop runs them all. Fields can
/// be changed to build variants.
public struct EmulationProfile: Equatable, Sendable {
    /// How the trace is walked.
    public enum Network: String, Equatable, Sendable {
        /// Seconds and bytes in `fixed_env.py`'s order: one whole transfer per request.
        case pensieve
        /// Milliseconds and bits in Sabre's order: latency pro-rated across period boundaries,
        /// transfers in progress steps that an abandonment check can stop.
        case sabre
        /// Chunked transfer from a live encoder: the trace walked chunk by chunk, each chunk's
        /// bytes flowing only once the encoder has produced it.
        case chunked
    }

    /// How the player keeps its buffer.
    public enum Buffer: String, Equatable, Sendable {
        /// One number of seconds.
        case level
        /// The list of downloaded segments with a partly played head: segments start playing at
        /// known times, a buffered segment can be replaced, and stall events count as Sabre counts them.
        case segments
        /// Chunks appended as they arrive, played at a variable rate behind a moving live edge.
        case live
    }

    /// When the player waits because its buffer is full.
    public enum FullBufferWait: Equatable, Sendable {
        /// After a download, while the buffer is over the maximum, in steps of `stepSeconds`
        /// (0 waits exactly down to the maximum).
        case afterDownload(stepSeconds: Double)
        /// Before a request, until a whole segment fits under the maximum.
        case beforeRequest
    }

    /// Which buffered segment a request may replace (Sabre's `-r`).
    public enum Replacement: String, Equatable, Sendable, CaseIterable {
        case none
        /// The oldest replaceable segment below the chosen level.
        case left
        /// The newest one.
        case right
    }

    /// Where the request latency of each download comes from.
    public enum Latency: Equatable, Sendable {
        /// The same round trip for every request.
        case fixed(seconds: Double)
        /// The trace's latency at the time of the request; `fallbackSeconds` when it has none.
        case trace(fallbackSeconds: Double)
    }

    public var name: String
    /// Share of the trace's bandwidth that carries segment bytes (the rest is protocol overhead).
    public var payloadFraction: Double
    public var latency: Latency
    /// Whether the trace moves on during the request latency (no data flows then) or the latency
    /// is only added to the download's delay, as Pensieve does.
    public var latencyConsumesTraceTime: Bool
    /// The player stops fetching while its buffer holds more than this.
    public var maxBufferSeconds: Double
    /// When the buffer is over the maximum the player waits in multiples of this step
    /// (Pensieve: 0.5 s); 0 waits exactly down to the maximum.
    public var bufferWaitStepSeconds: Double
    /// Playback starts once this much is buffered (or the last segment has arrived).
    public var startupThresholdSeconds: Double
    /// Whether the wait before playback starts is counted as rebuffering (Pensieve does);
    /// it is always reported as the startup delay too.
    public var startupCountsAsRebuffer: Bool
    /// Segments each session plays; `nil` plays every segment the video has.
    public var segmentsToPlay: Int?
    /// A session whose simulated time exceeds this ends with an error instead of running on.
    public var maxSessionSeconds: Double
    /// A session that takes more steps than this (period boundaries crossed, requests, progress
    /// checks, live chunks) ends with an error, however little simulated time they cover.
    public var maxSessionSteps: Int
    public var network: Network
    public var buffer: Buffer
    /// Whether downloads after the first run the strategy's abandonment check (needs the `sabre` network).
    public var abandonment: Bool
    /// Whether the emulator skips abandonment checks until the recheck a strategy asked for is
    /// due; `false` calls them at every progress step (`--check-every-step`), which must give
    /// the same results.
    public var honoursRechecks: Bool
    public var replacement: Replacement
    /// Scales the trace's bandwidth (Sabre's `-nm`).
    public var bandwidthMultiplier: Double
    /// How the throughput estimate offered to strategies beside the seed estimator is kept;
    /// `nil` keeps none (the `pensieve` profile, whose simulator has none and whose speed figures
    /// it would cost).
    public var estimator: ThroughputEstimator.Method?
    /// The level whose start ends ramp-up; `nil` uses the network's sustainable level (`segments` buffer only).
    public var rampUpLevel: Int?
    /// The live encoder and player (`chunked` network and `live` buffer); `nil` for on-demand profiles.
    public var liveSettings: LiveSettings?

    public init(
        name: String,
        payloadFraction: Double,
        latency: Latency,
        latencyConsumesTraceTime: Bool,
        maxBufferSeconds: Double,
        bufferWaitStepSeconds: Double,
        startupThresholdSeconds: Double,
        startupCountsAsRebuffer: Bool,
        segmentsToPlay: Int?,
        maxSessionSeconds: Double,
        network: Network = .pensieve,
        buffer: Buffer = .level,
        abandonment: Bool = false,
        honoursRechecks: Bool = true,
        replacement: Replacement = .none,
        bandwidthMultiplier: Double = 1,
        estimator: ThroughputEstimator.Method? = .default,
        rampUpLevel: Int? = nil,
        liveSettings: LiveSettings? = nil,
        maxSessionSteps: Int = EmulationProfile.defaultMaxSessionSteps
    ) {
        self.name = name
        self.payloadFraction = payloadFraction
        self.latency = latency
        self.latencyConsumesTraceTime = latencyConsumesTraceTime
        self.maxBufferSeconds = maxBufferSeconds
        self.bufferWaitStepSeconds = bufferWaitStepSeconds
        self.startupThresholdSeconds = startupThresholdSeconds
        self.startupCountsAsRebuffer = startupCountsAsRebuffer
        self.segmentsToPlay = segmentsToPlay
        self.maxSessionSeconds = maxSessionSeconds
        self.maxSessionSteps = maxSessionSteps
        self.network = network
        self.buffer = buffer
        self.abandonment = abandonment
        self.honoursRechecks = honoursRechecks
        self.replacement = replacement
        self.bandwidthMultiplier = bandwidthMultiplier
        self.estimator = estimator
        self.rampUpLevel = rampUpLevel
        self.liveSettings = liveSettings
    }

    /// A day of simulated time: every built-in profile's session time limit.
    public static let defaultMaxSessionSeconds = 86_400.0
    /// 100 million steps: a day of a trace cut into millisecond periods, and a fraction of a second
    /// to a few seconds of work, however the trace is cut.
    public static let defaultMaxSessionSteps = 100_000_000

    /// When the player waits on a full buffer: before requests on the `segments` buffer,
    /// after downloads in `bufferWaitStepSeconds` steps on the `level` buffer.
    public var fullBufferWait: FullBufferWait {
        buffer == .segments ? .beforeRequest : .afterDownload(stepSeconds: bufferWaitStepSeconds)
    }

    /// Checks that the mechanics fit together.
    public func validate() throws(InputError) {
        if abandonment || replacement != .none || buffer == .segments {
            guard network == .sabre, buffer == .segments else {
                throw InputError(file: "--profile", "abandonment, replacement and the segment buffer need the sabre network and segment buffer (profile \(name))")
            }
        }
        if liveSettings != nil || buffer == .live || network == .chunked {
            guard let live = liveSettings, buffer == .live, network == .chunked else {
                throw InputError(file: "--profile", "live settings, the live buffer and the chunked network go together (profile \(name))")
            }
            try live.validate()
        }
        guard maxBufferSeconds > 0, maxBufferSeconds <= Self.defaultMaxSessionSeconds else {
            throw InputError(file: "--max-buffer-s", "must be a positive number of seconds, at most 86400")
        }
        guard bandwidthMultiplier.isFinite, bandwidthMultiplier > 0 else {
            throw InputError(file: "--bandwidth-multiplier", "must be a positive number")
        }
        guard maxSessionSeconds.isFinite, maxSessionSeconds > 0, maxSessionSteps > 0 else {
            throw InputError(file: "--profile", "the session limits must be positive (profile \(name))")
        }
    }

    /// Pensieve's `fixed_env.py`: 95 % payload, an 80 ms RTT added to each delay without moving
    /// the trace, a 60 s buffer cap drained in 500 ms sleeps, playback from the first segment with
    /// its download counted as rebuffering, 48 segments; no throughput estimator beside the seed one.
    public static let pensieve = EmulationProfile(
        name: "pensieve",
        payloadFraction: 0.95,
        latency: .fixed(seconds: 0.08),
        latencyConsumesTraceTime: false,
        maxBufferSeconds: 60,
        bufferWaitStepSeconds: 0.5,
        startupThresholdSeconds: 0,
        startupCountsAsRebuffer: true,
        segmentsToPlay: 48,
        maxSessionSeconds: defaultMaxSessionSeconds,
        estimator: nil
    )

    /// abrlab's default: the trace's bandwidth is all payload; each request waits the trace's
    /// latency (80 ms when the trace has none) while the trace moves on; a 60 s buffer cap with an
    /// exact wait down to it; playback starts once one segment is buffered and the startup delay is
    /// reported on its own, not as rebuffering; every segment of the video is played.
    public static let `default` = EmulationProfile(
        name: "default",
        payloadFraction: 1.0,
        latency: .trace(fallbackSeconds: 0.08),
        latencyConsumesTraceTime: true,
        maxBufferSeconds: 60,
        bufferWaitStepSeconds: 0,
        startupThresholdSeconds: 0,
        startupCountsAsRebuffer: false,
        segmentsToPlay: nil,
        maxSessionSeconds: defaultMaxSessionSeconds
    )

    /// Sabre's simulator (Spiteri, Nguyen, Sitaraman, MMSys 2018, doi:10.1145/3204949.3204953):
    /// the trace walked in milliseconds with latency paid in trace time, a 25 s buffer of whole
    /// segments, a wait before each request until a segment fits, abandonment checks on every
    /// download after the first, playback from the first segment (its download is start-up, not
    /// rebuffering), its EWMA estimator, every segment of the video.
    public static let sabre = EmulationProfile(
        name: "sabre",
        payloadFraction: 1.0,
        latency: .trace(fallbackSeconds: 0.08),
        latencyConsumesTraceTime: true,
        maxBufferSeconds: 25,
        bufferWaitStepSeconds: 0,
        startupThresholdSeconds: 0,
        startupCountsAsRebuffer: false,
        segmentsToPlay: nil,
        maxSessionSeconds: defaultMaxSessionSeconds,
        network: .sabre,
        buffer: .segments,
        abandonment: true
    )

    /// Live low-latency streaming (chunked CMAF over a moving live edge, as in the ACM MMSys 2020
    /// Twitch challenge): the player joins 1.5 s behind the live edge, fetches each segment as
    /// soon as the encoder starts it, receives chunks as they are produced, and plays at the rate
    /// dash.js's default catch-up picks (or the strategy asks for); the trace's latency per
    /// request (none when it has none); the throughput estimate over chunk transfer times
    /// (dash.js's low-latency method); one pass of the trace. See ``LiveSettings``.
    public static let live = EmulationProfile(
        name: "live",
        payloadFraction: 1.0,
        latency: .trace(fallbackSeconds: 0),
        latencyConsumesTraceTime: true,
        maxBufferSeconds: 60,
        bufferWaitStepSeconds: 0,
        startupThresholdSeconds: 0,
        startupCountsAsRebuffer: false,
        segmentsToPlay: nil,
        maxSessionSeconds: defaultMaxSessionSeconds,
        network: .chunked,
        buffer: .live,
        liveSettings: LiveSettings()
    )

    /// The profiles that ship, by name.
    public static let builtIn: [EmulationProfile] = [.default, .pensieve, .sabre, .live]

    public static func named(_ name: String) -> EmulationProfile? {
        builtIn.first { $0.name == name }
    }
}
