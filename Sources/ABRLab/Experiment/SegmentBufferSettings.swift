/// The settings of Sabre's mechanics (``EmulationProfile/Mechanics/segmentBuffer(_:)``): its link,
/// abandonment checks, replacement and the ramp-up metric. The defaults are Sabre's.
public struct SegmentBufferSettings: Equatable, Sendable {
    /// Request latency of traces that record none.
    public var fallbackLatencySeconds: Double
    /// Whether downloads after the first run the strategy's abandonment check.
    public var abandonment: Bool
    /// Whether the emulator skips abandonment checks until the recheck a strategy asked for is
    /// due; `false` calls them at every progress step (`--check-every-step`), which must give
    /// the same results.
    public var honoursRechecks: Bool
    public var replacement: EmulationProfile.Replacement
    /// Scales the trace's bandwidth (Sabre's `-nm`).
    public var bandwidthMultiplier: Double
    /// The level whose start ends ramp-up; `nil` uses the network's sustainable level.
    public var rampUpLevel: Int?
    /// Whose scheduler decides when the next request goes out: Sabre's (`sabre`) or dash.js's (`dashjs`).
    public var player: SegmentBufferPlayer

    public init(
        fallbackLatencySeconds: Double = 0.08, abandonment: Bool = true, honoursRechecks: Bool = true,
        replacement: EmulationProfile.Replacement = .none, bandwidthMultiplier: Double = 1, rampUpLevel: Int? = nil,
        player: SegmentBufferPlayer = .sabre
    ) {
        self.fallbackLatencySeconds = fallbackLatencySeconds
        self.abandonment = abandonment
        self.honoursRechecks = honoursRechecks
        self.replacement = replacement
        self.bandwidthMultiplier = bandwidthMultiplier
        self.rampUpLevel = rampUpLevel
        self.player = player
    }
}
