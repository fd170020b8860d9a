import ABRLab
import Foundation
import Testing

@Suite struct NetworkBandwidthEstimatorTests {
    @Test func emptyEstimatorIsOffline() {
        let sut = NetworkBandwidthEstimator(timeSource: ManualTimeSource())
        #expect(sut.estimatedBandwidth() == 0)
        #expect(sut.networkQuality() == .offline)
    }

    @Test func weightsNewerSamplesMore() {
        let sut = NetworkBandwidthEstimator(timeSource: ManualTimeSource())
        sut.recordSample(bytes: 1_000_000, duration: 1.0)
        sut.recordSample(bytes: 2_000_000, duration: 1.0)
        // (8 Mbps * 1 + 16 Mbps * 2) / 3
        #expect(abs(sut.estimatedBandwidth() - 40_000_000.0 / 3) < 1e-6)
    }

    @Test func ignoresNonPositiveDurations() {
        let sut = NetworkBandwidthEstimator(timeSource: ManualTimeSource())
        sut.recordSample(bytes: 1_000, duration: 0)
        sut.recordSample(bytes: 1_000, duration: -1)
        #expect(sut.samples.isEmpty)
    }

    @Test func acceptsDurations() {
        let sut = NetworkBandwidthEstimator(timeSource: ManualTimeSource())
        sut.recordSample(bytes: 125_000, duration: .milliseconds(500))
        #expect(sut.estimatedBandwidth() == 2_000_000)
    }

    @Test func keepsAtMostMaxSamples() {
        let sut = NetworkBandwidthEstimator(maxSamples: 10, timeSource: ManualTimeSource())
        for i in 1...12 { sut.recordSample(bytes: UInt64(i) * 1000, duration: 1) }
        #expect(sut.samples.count == 10)
        #expect(sut.samples.first?.bandwidth == 24_000.0)
        // weights 1...10 over samples 3...12 (kbps * 8)
        var weighted = 0.0
        for weight in 1...10 { weighted += Double(weight) * Double(weight + 2) * 8000 }
        let expected = weighted / 55
        #expect(abs(sut.estimatedBandwidth() - expected) < 1e-6)
    }

    @Test func dropsSamplesAtOrBeyondTheWindow() {
        let clock = ManualTimeSource()
        let sut = NetworkBandwidthEstimator(sampleWindow: 30, timeSource: clock)
        sut.recordSample(bytes: 1_000_000, duration: 1)
        clock.advance(bySeconds: 29.5)
        #expect(sut.estimatedBandwidth() == 8_000_000)
        clock.advance(bySeconds: 0.5)
        // exactly 30 s old: the seed keeps only samples strictly newer than the cutoff
        #expect(sut.estimatedBandwidth() == 0)
        #expect(sut.samples.isEmpty)
    }

    @Test func windowAppliesOnRecordToo() {
        let clock = ManualTimeSource()
        let sut = NetworkBandwidthEstimator(sampleWindow: 10, timeSource: clock)
        sut.recordSample(bytes: 1, duration: 1)
        clock.advance(bySeconds: 11)
        sut.recordSample(bytes: 2, duration: 1)
        #expect(sut.samples.map(\.bandwidth) == [16])
    }

    @Test func explicitTimestampsNeedNoClock() {
        let sut = NetworkBandwidthEstimator(sampleWindow: 5)
        let start = Date(timeIntervalSince1970: 100)
        sut.recordSample(bytes: 1_000, duration: 1, at: start)
        #expect(sut.estimatedBandwidth(at: start.addingTimeInterval(4)) == 8_000)
        #expect(sut.networkQuality(at: start.addingTimeInterval(6)) == .offline)
    }

    @Test(arguments: [
        (UInt64(62_499), NetworkQuality.poor), (62_500, .fair), (249_999, .fair),
        (250_000, .good), (624_999, .good), (625_000, .excellent),
    ])
    func qualityThresholdsThroughSamples(bytesPerSecond: UInt64, expected: NetworkQuality) {
        let sut = NetworkBandwidthEstimator(timeSource: ManualTimeSource())
        sut.recordSample(bytes: bytesPerSecond, duration: 1)
        #expect(sut.networkQuality() == expected)
    }

    // The seed's own examples.
    @Test func seedExamples() {
        let sut = NetworkBandwidthEstimator()
        sut.recordSample(bytes: 1_000_000, duration: 1.0)
        sut.recordSample(bytes: 2_000_000, duration: 1.0)
        #expect(sut.estimatedBandwidth() > 12_000_000)

        let single = NetworkBandwidthEstimator()
        single.recordSample(bytes: 100_000, duration: 1.0)
        #expect(single.networkQuality() == .fair)
    }
}
