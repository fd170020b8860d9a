/// Writes numbers for trace and manifest files so that reading them back gives the same `Double`.
public enum NumberText {
    /// Whole numbers without a fraction (`3000`, as Sabre's files have them), others in Swift's
    /// shortest round-trip form (`0.549999952316`), which JSON, CSV and Python all read exactly.
    public static func plain(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// A number for messages: as ``plain(_:)``, with NaN written `NaN` whatever its sign bit
    /// (C and Swift write `-nan`) and infinities `inf` and `-inf`.
    static func readable(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return plain(value)
    }

    /// `value` snapped to the nearest whole number when within a billionth of it, so sums and
    /// products of decimal fractions (0.1 s × 1000) come out as the whole numbers they stand for.
    package static func snapped(_ value: Double) -> Double {
        let whole = value.rounded()
        return abs(value - whole) <= 1e-9 * max(1, abs(value)) ? whole : value
    }

    /// A value near `guess` that `transform` maps exactly onto `target`, when `guess` or one of its
    /// neighbouring `Double`s does; otherwise `guess`. Writers use it so that the loader's
    /// arithmetic (`Mbps × 1_000_000`, `ms / 1000`) gives back the very `Double` the trace held.
    package static func preimage(of target: Double, near guess: Double, under transform: (Double) -> Double) -> Double {
        for candidate in [guess, guess.nextUp, guess.nextDown] where transform(candidate) == target {
            return candidate
        }
        return guess
    }
}
