/// The settings of the whole-transfer mechanics (``EmulationProfile/Mechanics/wholeTransfers(_:)``):
/// how each request's transfer walks the trace, and how the one-number buffer waits and starts.
public struct WholeTransferSettings: Equatable, Sendable {
    /// Share of the trace's bandwidth that carries segment bytes (the rest is protocol overhead).
    public var payloadFraction: Double
    public var latency: EmulationProfile.Latency
    /// Whether the trace moves on during the request latency (no data flows then) or the latency
    /// is only added to the download's delay, as Pensieve does.
    public var latencyConsumesTraceTime: Bool
    /// When the buffer is over the maximum after a download the player waits in multiples of this
    /// step (Pensieve: 0.5 s); 0 waits exactly down to the maximum.
    public var bufferWaitStepSeconds: Double
    /// Playback starts once this much is buffered (or the last segment has arrived).
    public var startupThresholdSeconds: Double
    /// Whether the wait before playback starts is counted as rebuffering (Pensieve does);
    /// it is always reported as the startup delay too.
    public var startupCountsAsRebuffer: Bool

    public init(
        payloadFraction: Double, latency: EmulationProfile.Latency, latencyConsumesTraceTime: Bool,
        bufferWaitStepSeconds: Double, startupThresholdSeconds: Double, startupCountsAsRebuffer: Bool
    ) {
        self.payloadFraction = payloadFraction
        self.latency = latency
        self.latencyConsumesTraceTime = latencyConsumesTraceTime
        self.bufferWaitStepSeconds = bufferWaitStepSeconds
        self.startupThresholdSeconds = startupThresholdSeconds
        self.startupCountsAsRebuffer = startupCountsAsRebuffer
    }
}
