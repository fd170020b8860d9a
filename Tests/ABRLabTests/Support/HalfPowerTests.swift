import Foundation
import Testing
import TestSupport
@testable import ABRLab

/// The estimators' half-life weights are `pow(0.5, x)` exactly as the C library computes it, so a
/// release build agrees with a debug build and with Sabre's Python to the bit.
@Suite(.tags(.core), .selectedByTags) struct HalfPowerTests {
    /// The base comes from an array the optimiser cannot see through, so this `pow` stays a call.
    static let bases = [0.5]

    @Test func halfPowerIsTheLibrarysPowToTheBit() {
        var generator = SystemRandomNumberGenerator()
        let base = Self.bases[Int.random(in: 0..<Self.bases.count, using: &generator)]
        var differing: [Double] = []
        for _ in 0..<20_000 {
            let exponent = Double.random(in: -60...60, using: &generator)
            if halfPower(exponent).bitPattern != pow(base, exponent).bitPattern { differing.append(exponent) }
        }
        for exponent in [0.0, 1, -1, 0.25, 1e-9, 1e3, -1e3] where halfPower(exponent).bitPattern != pow(base, exponent).bitPattern {
            differing.append(exponent)
        }
        #expect(differing.isEmpty, "halfPower differs from pow(0.5, x) for x in \(differing.prefix(5))")
    }
}
