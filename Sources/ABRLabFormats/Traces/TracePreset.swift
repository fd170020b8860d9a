import ABRLab

/// Parameter sets for typical links.
public enum TracePreset: String, CaseIterable, Sendable {
    case broadband, cellular3g = "3g", cellular4g = "4g", lossy

    public var summary: String {
        switch self {
        case .broadband: "8–30 Mbps, steady, 20 ms"
        case .cellular3g: "0.2–3 Mbps, noisy, 120 ms, rare outages"
        case .cellular4g: "1–20 Mbps, 50 ms, rare outages"
        case .lossy: "0.3–6 Mbps, very noisy, 80 ms, frequent outages"
        }
    }

    public var generator: SyntheticTraceGenerator {
        var g = SyntheticTraceGenerator()
        switch self {
        case .broadband:
            (g.minKbps, g.maxKbps, g.stateCount, g.switchProbability, g.noise) = (8000, 30000, 4, 0.05, 0.05)
            (g.latencyMilliseconds, g.latencyJitterMilliseconds) = (20, 2)
        case .cellular3g:
            (g.minKbps, g.maxKbps, g.stateCount, g.switchProbability, g.noise) = (200, 3000, 6, 0.15, 0.25)
            (g.latencyMilliseconds, g.latencyJitterMilliseconds, g.outageProbability, g.outageMeanSeconds) = (120, 30, 0.005, 2)
        case .cellular4g:
            (g.minKbps, g.maxKbps, g.stateCount, g.switchProbability, g.noise) = (1000, 20000, 6, 0.1, 0.2)
            (g.latencyMilliseconds, g.latencyJitterMilliseconds, g.outageProbability, g.outageMeanSeconds) = (50, 10, 0.002, 2)
        case .lossy:
            (g.minKbps, g.maxKbps, g.stateCount, g.switchProbability, g.noise) = (300, 6000, 5, 0.2, 0.3)
            (g.latencyMilliseconds, g.latencyJitterMilliseconds, g.outageProbability, g.outageMeanSeconds) = (80, 40, 0.03, 3)
        }
        return g
    }
}
