/// numpy's legacy generator (`numpy.random.seed` / `RandomState`): MT19937 with numpy's integer
/// seeding, 32-bit outputs, and the legacy bounded integers and doubles built on them.
///
/// Matsumoto, Nishimura, "Mersenne Twister", ACM TOMACS 8(1), 1998, doi:10.1145/272991.272995;
/// seeding and bounded draws as numpy's `_legacy_seeding`, `mt19937_seed` and
/// `random_bounded_uint64_fill` (masked rejection). Learned ABR agents trained and tested in
/// numpy draw their actions from it, so reproducing their sessions needs the same stream.
public struct NumpyLegacyRandom: Sendable {
    private static let stateLength = 624
    private static let shift = 397
    private var state: [UInt32]
    private var position: Int

    /// `numpy.random.seed(seed)` for an integer seed 0 … 2³² − 1.
    public init(seed: UInt32) {
        state = [UInt32](repeating: 0, count: Self.stateLength)
        var value = seed
        for index in 0..<Self.stateLength {
            state[index] = value
            value = 1_812_433_253 &* (value ^ (value >> 30)) &+ UInt32(index + 1)
        }
        position = Self.stateLength
    }

    /// The next 32-bit output.
    public mutating func nextUInt32() -> UInt32 {
        if position == Self.stateLength { regenerate() }
        var y = state[position]
        position += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9d2c_5680
        y ^= (y << 15) & 0xefc6_0000
        y ^= y >> 18
        return y
    }

    /// Two outputs as one 64-bit word, the first in the high half (numpy's `mt19937_next64`).
    public mutating func nextUInt64() -> UInt64 {
        let high = UInt64(nextUInt32())
        return high << 32 | UInt64(nextUInt32())
    }

    /// `random_sample()`: 53 random bits from two outputs, in [0, 1).
    public mutating func nextDouble() -> Double {
        let a = Double(nextUInt32() >> 5)
        let b = Double(nextUInt32() >> 6)
        return (a * 67_108_864 + b) / 9_007_199_254_740_992
    }

    /// `randint(low, high)`: a value in `low ..< high`, by masked rejection — one 32-bit output
    /// per try when the range fits 32 bits, one 64-bit word otherwise; no draw when the range
    /// holds one value.
    public mutating func randomInteger(low: Int64, high: Int64) -> Int64 {
        precondition(low < high, "randint needs low < high")
        let range = UInt64(bitPattern: high &- low) &- 1
        if range == 0 { return low }
        var mask = range
        for shift in [1, 2, 4, 8, 16, 32] { mask |= mask >> UInt64(shift) }
        var value: UInt64
        if range <= UInt64(UInt32.max) {
            if range == UInt64(UInt32.max) { return low &+ Int64(nextUInt32()) }
            repeat { value = UInt64(nextUInt32()) & mask } while value > range
        } else {
            repeat { value = nextUInt64() & mask } while value > range
        }
        return low &+ Int64(bitPattern: value)
    }

    private mutating func regenerate() {
        let upper: UInt32 = 0x8000_0000, lower: UInt32 = 0x7fff_ffff
        let n = Self.stateLength, m = Self.shift
        state.withUnsafeMutableBufferPointer { mt in
            for k in 0..<n {
                let y = (mt[k] & upper) | (mt[(k + 1) % n] & lower)
                mt[k] = mt[(k + m) % n] ^ (y >> 1) ^ ((y & 1) == 0 ? 0 : 0x9908_b0df)
            }
        }
        position = 0
    }
}
