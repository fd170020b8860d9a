import Foundation

/// A seeded Markov-modulated bandwidth model, in the spirit of Pensieve's synthetic traces and
/// Genet's generator: the link sits in one of `stateCount` bandwidth states spaced evenly on a
/// log scale between `minKbps` and `maxKbps`, moves to a neighbouring state with probability
/// `switchProbability` at every step, adds multiplicative Gaussian noise, and now and then drops
/// into an outage of zero bandwidth. The same parameters and seed always give the same trace.
public struct SyntheticTraceGenerator: Equatable, Sendable {
    /// Length of the trace (to the millisecond).
    public var durationSeconds: Double = 300
    /// Length of each period (one bandwidth sample).
    public var stepSeconds: Double = 1
    public var minKbps: Double = 500
    public var maxKbps: Double = 8000
    /// Number of bandwidth states between the bounds (1 gives a constant mean at `maxKbps`).
    public var stateCount: Int = 6
    /// Chance per step of moving to a neighbouring state.
    public var switchProbability: Double = 0.1
    /// Standard deviation of the multiplicative noise (0.1 = ±10 % typical).
    public var noise: Double = 0.1
    /// Round-trip latency written into the trace; `nil` writes none.
    public var latencyMilliseconds: Double?
    /// Standard deviation of the latency's Gaussian jitter.
    public var latencyJitterMilliseconds: Double = 0
    /// Chance per step of an outage starting.
    public var outageProbability: Double = 0
    /// Mean outage length (geometric in steps).
    public var outageMeanSeconds: Double = 2
    public var seed: UInt64 = Setting.seed.defaultValue(in: "traces generate").seed ?? 0

    public init() {}

    /// Longest trace: a day, the session time limit, beyond which no session reads it.
    public static let maximumDurationSeconds = EmulationProfile.defaultMaxSessionSeconds
    /// Shortest step: the millisecond the trace's period ends are written to.
    public static let minimumStepSeconds = 0.001
    /// Most periods a trace (and steps an outage, on average) may have.
    public static let maximumSteps = 10_000_000.0
    /// Highest bandwidth state, kbps (1 Tbit/s).
    public static let maximumKbps = SettingDeclaration.maximumKbps

    /// Checks the parameters, naming the first one that is off.
    public func validate() throws(InputError) {
        func check(_ ok: Bool, _ settings: [Setting], _ rule: InputText) throws(InputError) {
            if !ok { throw InputError(settings: settings, rule) }
        }
        try Setting.durationS.check(durationSeconds)
        try Setting.stepS.check(stepSeconds)
        try check(
            stepSeconds >= Self.minimumStepSeconds && stepSeconds <= durationSeconds, [.stepS], "must be at least 0.001 s and at most the duration"
        )
        try check(durationSeconds / stepSeconds <= Self.maximumSteps, [.durationS], "gives more than 10 million periods; use a longer \(Setting.stepS)")
        try Setting.minKbps.check(minKbps)
        try Setting.maxKbps.check(maxKbps)
        try check(maxKbps >= minKbps && maxKbps <= Self.maximumKbps, [.minKbps, .maxKbps], "need 0 < min ≤ max ≤ 1e9 kbps")
        try Setting.states.check(.integer(stateCount))
        try Setting.switchProbability.check(switchProbability)
        try Setting.noise.check(noise)
        if let latencyMilliseconds { try Setting.latencyMs.check(latencyMilliseconds) }
        try Setting.latencyJitterMs.check(latencyJitterMilliseconds)
        try Setting.outageProbability.check(outageProbability)
        // An outage's length is drawn step by step: a mean of 1e308 s never ends the draw.
        try check(
            outageMeanSeconds > 0 && outageMeanSeconds / stepSeconds <= Self.maximumSteps, [.outageMeanS],
            "must be positive and at most 10 million steps (\(Setting.stepS))"
        )
    }

    /// The bandwidth of each state, lowest first.
    public var stateKbps: [Double] {
        guard stateCount > 1 else { return [maxKbps] }
        let ratio = log(maxKbps / minKbps)
        // The ends are set exactly: exp(log(x)) can miss x by an ulp.
        return (0..<stateCount).map { index in
            index == 0 ? minKbps : index == stateCount - 1 ? maxKbps : minKbps * exp(ratio * Double(index) / Double(stateCount - 1))
        }
    }

    public func generate(name: String) throws(InputError) -> NetworkTrace {
        try validate()
        var random = SeededGenerator(seed: seed)
        let states = stateKbps
        // Whole steps, the last one cut short so the trace lasts exactly `durationSeconds`.
        let steps = max(1, Int((durationSeconds / stepSeconds).rounded(.up)))
        var state = Int(random.next() % UInt64(states.count))
        var outageStepsLeft = 0
        let outageContinue = 1 - min(1, stepSeconds / outageMeanSeconds)
        var ends: [Double] = []
        var bandwidths: [Double] = []
        var latencies: [Double] = []
        ends.reserveCapacity(steps)
        bandwidths.reserveCapacity(steps)
        for step in 0..<steps {
            if random.unit() < switchProbability, states.count > 1 {
                state = state == 0 ? 1 : state == states.count - 1 ? state - 1 : state + (random.unit() < 0.5 ? -1 : 1)
            }
            if outageStepsLeft == 0, random.unit() < outageProbability {
                outageStepsLeft = 1
                while random.unit() < outageContinue { outageStepsLeft += 1 }
            }
            var kbps = 0.0
            if outageStepsLeft > 0 {
                outageStepsLeft -= 1
            } else {
                kbps = max(states[state] * (1 + noise * random.gaussian()), minKbps * 0.1)
            }
            // Millisecond and kbps resolution keep files short and exact to read back.
            ends.append((min(Double(step + 1) * stepSeconds, durationSeconds) * 1000).rounded() / 1000)
            bandwidths.append(kbps.rounded() * 1000)
            if let latencyMilliseconds {
                let jittered = max(0, latencyMilliseconds + latencyJitterMilliseconds * random.gaussian())
                latencies.append(jittered.rounded() / 1000)
            }
        }
        return try NetworkTrace(
            name: name, periodEndSeconds: ends, bandwidthBitsPerSecond: bandwidths,
            latencySeconds: latencyMilliseconds == nil ? nil : latencies
        )
    }
}

extension SeededGenerator {
    /// Uniform in [0, 1).
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Standard normal, by Box–Muller.
    public mutating func gaussian() -> Double {
        let u = max(unit(), 0x1p-53)
        return sqrt(-2 * log(u)) * cos(2 * Double.pi * unit())
    }
}
