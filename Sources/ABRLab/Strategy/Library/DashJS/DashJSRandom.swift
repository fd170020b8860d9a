// The harness's seeded `Math.random` (replay.mjs: mulberry32 over the session's `seed`); only LoL+'s
// LearningAbrController draws from it (spec section G.7).

public struct DashJSRandom: Sendable {
    private var state: UInt32

    /// `(Number(seed) >>> 0) || 0x9e3779b9`.
    public init(seed: Double) {
        let truncated = seed.isFinite ? seed.rounded(.towardZero) : 0
        let wrapped = truncated.magnitude < 9.2e18 ? UInt32(truncatingIfNeeded: Int64(truncated)) : 0
        state = wrapped == 0 ? 0x9e37_79b9 : wrapped
    }

    public mutating func next() -> Double {
        state = state &+ 0x6D2B_79F5
        var t = state
        t = (t ^ (t >> 15)) &* (t | 1)
        t ^= t &+ ((t ^ (t >> 7)) &* (t | 61))
        return Double(t ^ (t >> 14)) / 4_294_967_296
    }
}
