/// Every parameter of the player and network model, under one name.
///
/// Two profiles ship: ``pensieve`` reproduces Pensieve's `fixed_env.py` exactly, ``default`` is
/// abrlab's own model (see ``default`` for its choices). Fields can be changed to build variants.
public struct EmulationProfile: Equatable, Sendable {
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
        maxSessionSeconds: Double
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
    }

    /// Pensieve's `fixed_env.py`: 95 % payload, an 80 ms RTT added to each delay without moving
    /// the trace, a 60 s buffer cap drained in 500 ms sleeps, playback from the first segment with
    /// its download counted as rebuffering, 48 segments.
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
        maxSessionSeconds: 86_400
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
        maxSessionSeconds: 86_400
    )

    /// The profiles that ship, by name.
    public static let builtIn: [EmulationProfile] = [.default, .pensieve]

    public static func named(_ name: String) -> EmulationProfile? {
        builtIn.first { $0.name == name }
    }
}
