/// The comparisons Sabre's scripts in `Strategies/sabre` make with Lua's `math.max` and
/// `math.min`, so the native strategies reproduce them bit for bit: the first argument wins
/// unless the second is strictly larger (or smaller), which decides the sign of a zero.
enum SabreArithmetic {
    @inline(__always)
    static func larger(_ first: Double, _ second: Double) -> Double { first < second ? second : first }

    @inline(__always)
    static func smaller(_ first: Double, _ second: Double) -> Double { second < first ? second : first }

    /// The estimate as the scripts see it: Lua reads a NaN field as `nil`.
    @inline(__always)
    static func known(_ value: Double?) -> Double? {
        guard let value, !value.isNaN else { return nil }
        return value
    }
}
