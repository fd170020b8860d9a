import ABRLab
import ABRLabPlayerKit
import Foundation
import Testing
import TestSupport

/// The seed's estimator keeps the samples strictly newer than the window, then the newest
/// `maxSamples` of them, and weighs the i-th kept sample (oldest first) i + 1 — whether the
/// samples come in time order (as in every emulated session) or not.
@Suite(.tags(.core), .selectedByTags) struct NetworkBandwidthEstimatorTests {
    /// The rule written plainly, for comparison.
    struct Reference {
        let maxSamples: Int
        let window: Double
        var samples: [(bandwidth: Double, seconds: Double)] = []

        mutating func trim(cutoff: Double) {
            samples = Array(samples.filter { $0.seconds > cutoff }.suffix(maxSamples))
        }

        mutating func record(bytes: UInt64, duration: Double, at seconds: Double) {
            guard duration > 0 else { return }
            samples.append((Double(bytes) * 8 / duration, seconds))
            trim(cutoff: seconds - window)
        }

        mutating func estimate(at seconds: Double) -> Double {
            trim(cutoff: seconds - window)
            guard !samples.isEmpty else { return 0 }
            let weights = samples.indices.map { Double($0 + 1) }
            return zip(samples, weights).map { $0.bandwidth * $1 }.reduce(0, +) / weights.reduce(0, +)
        }
    }

    /// A small deterministic generator, so every run checks the same sequences.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test(arguments: [true, false])
    func keepsTheNewestSamplesOfTheWindow(inTimeOrder: Bool) {
        for seed in 0..<20 {
            var steps = Steps(state: UInt64(seed))
            let maxSamples = [0, 1, 3, 10][seed % 4]
            let window = [5.0, 30.0][seed % 2]
            let estimator = NetworkBandwidthEstimator(maxSamples: maxSamples, sampleWindow: window)
            var reference = Reference(maxSamples: maxSamples, window: window)
            var now = 0.0
            for _ in 0..<200 {
                // In time order, time only moves on (sometimes not at all); else it jumps back too.
                now += inTimeOrder ? Double(steps.next(40)) / 4 : Double(steps.next(60) - 25) / 2
                let bytes = UInt64(1 + steps.next(500_000))
                let duration = Double(steps.next(8)) / 2
                estimator.recordSample(bytes: bytes, duration: duration, at: Date(timeIntervalSinceReferenceDate: now))
                reference.record(bytes: bytes, duration: duration, at: now)
                #expect(estimator.samples.map(\.bandwidth) == reference.samples.map(\.bandwidth))
                let probe = now + Double(steps.next(16))
                #expect(estimator.estimatedBandwidth(at: Date(timeIntervalSinceReferenceDate: probe)) == reference.estimate(at: probe))
            }
        }
    }

    @Test func weighsNewerSamplesMoreAndForgetsOldOnes() {
        let estimator = NetworkBandwidthEstimator(maxSamples: 2, sampleWindow: 10)
        let at = { (seconds: Double) in Date(timeIntervalSinceReferenceDate: seconds) }
        #expect(estimator.estimatedBandwidth(at: at(0)) == 0)
        estimator.recordSample(bytes: 1_000, duration: 1, at: at(1))
        estimator.recordSample(bytes: 2_000, duration: 1, at: at(2))
        estimator.recordSample(bytes: 4_000, duration: 1, at: at(3))
        // The newest two: 16 kbit/s and 32 kbit/s, weighted 1 and 2.
        #expect(estimator.estimatedBandwidth(at: at(3)) == (16_000.0 + 2 * 32_000) / 3)
        // At 12 s the sample of 2 s is 10 s old: out of the window.
        #expect(estimator.estimatedBandwidth(at: at(12)) == 32_000)
        #expect(estimator.estimatedBandwidth(at: at(13)) == 0)
        estimator.recordSample(bytes: 1_000, duration: 0, at: at(14))
        #expect(estimator.samples.isEmpty)
    }
}
