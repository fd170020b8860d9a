import Foundation

/// `pow(0.5, exponent)` as the C library's `pow` computes it, in every build.
///
/// An optimised build rewrites a power of a constant base 2^k into `exp2`, whose result can differ
/// from `pow`'s in the last bit; Sabre's and dash.js's estimators (and Python's `math.pow`) call
/// `pow`, so a release build would drift from them — and from a debug build — by a bit now and
/// then. Left unoptimised, this function keeps the call to `pow`.
@_optimize(none) @inline(never)
func halfPower(_ exponent: Double) -> Double {
    pow(0.5, exponent)
}
