import ABRLab
import ABRLabResults
import EngineFixtures

/// Real `SessionMetrics` from tiny emulated sessions whose numbers can be worked out by hand:
/// four 1-second CBR segments at 1 or 2 Mbps over a constant link, with no latency, scored
/// with the linear QoE model (utility = Mbps, rebuffering costs 4.3 per second).
enum MetricsFixtures {
    static func metrics(levels: [Int], mbps: Double) throws -> SessionMetrics {
        let video = try EmulatorFixtures.video()
        let result = try SessionEmulator(profile: EmulatorFixtures.idealProfile()).run(
            strategy: ScriptedStrategy(levels: levels), strategyID: "s",
            trace: try EmulatorFixtures.constantTrace(mbps: mbps), video: video
        )
        return SessionMetrics(result: result, qoe: .linear, ladder: video.ladder)
    }

    /// 1 Mbps over 2 Mbps: QoE 4, 1000 kbps, startup 0.5 s, nothing else.
    static func low() throws -> SessionMetrics { try metrics(levels: [0], mbps: 2) }
    /// 2 Mbps over 2 Mbps: every segment takes exactly its own length, QoE 8, startup 1 s.
    static func high() throws -> SessionMetrics { try metrics(levels: [1], mbps: 2) }
    /// Alternating 1, 2, 1, 2 Mbps over 2 Mbps: QoE 1 + (2 − 1) + (1 − 1) + (2 − 1) = 3, 3 switches.
    static func alternating() throws -> SessionMetrics { try metrics(levels: [0, 1, 0, 1], mbps: 2) }
    /// 2 Mbps over 1 Mbps: 2 s per segment, startup 2 s, then a 1 s stall before each of the
    /// other three: QoE 8 − 4.3 · 3 = −4.9, rebuffer ratio 3 / (3 + 4).
    static func stalling() throws -> SessionMetrics { try metrics(levels: [1], mbps: 1) }
}

/// `a` and `b` equal to within `tolerance` (absolute).
func nearlyEqual(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// An interval's ends as a pair, to compare with literals (`Interval` has no public initialiser).
func intervalBounds(_ interval: Bootstrap.Interval) -> [Double] {
    [interval.lower, interval.upper]
}
