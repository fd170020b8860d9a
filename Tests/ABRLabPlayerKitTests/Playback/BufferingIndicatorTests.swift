import ABRLab
import ABRLabPlayerKit
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BufferingIndicatorTests {
    @Test func startsUnknownAndEmpty() {
        let indicator = BufferingIndicator()
        #expect(indicator.state == .unknown)
        #expect(indicator.progress == 0)
        #expect(indicator.fillRateSecondsPerSecond == 0)
        #expect(!indicator.isLikelyToKeepUp)
        #expect(!indicator.isNetworkActive)
        #expect(indicator.targetBufferSeconds == 30)
    }

    /// Buffered seconds, the state and the progress they give.
    static let thresholds: [(bufferSeconds: Double, state: BufferState, progress: Double)] = [
        (0, .empty, 0), (0.05, .empty, 0.05 / 30), (2.9, .critical, 2.9 / 30), (3, .low, 0.1),
        (9.99, .low, 9.99 / 30), (10, .sufficient, 10.0 / 30), (19.9, .sufficient, 19.9 / 30), (20, .good, 20.0 / 30),
        (30, .good, 1), (30.1, .excellent, 1), (45, .excellent, 1), (-2, .empty, 0),
    ]

    @Test(arguments: thresholds)
    func followsTheSeedsThresholdsAndTarget(bufferSeconds: Double, state: BufferState, progress: Double) {
        var indicator = BufferingIndicator()
        indicator.update(bufferSeconds: bufferSeconds, atSeconds: 1, isNetworkActive: true)
        #expect(indicator.state == state)
        #expect(indicator.progress == progress)
        #expect(indicator.isNetworkActive)
        #expect(BufferingIndicator.progress(bufferSeconds: bufferSeconds) == progress)
    }

    @Test func likelyToKeepUpFromTheReadinessMarker() {
        var indicator = BufferingIndicator()
        indicator.update(bufferSeconds: 4.4, atSeconds: 1, isNetworkActive: false)
        #expect(!indicator.isLikelyToKeepUp)
        indicator.update(bufferSeconds: 4.5, atSeconds: 2, isNetworkActive: false)
        #expect(indicator.isLikelyToKeepUp)
        var shortTarget = BufferingIndicator(targetBufferSeconds: 10)
        shortTarget.update(bufferSeconds: 1.5, atSeconds: 1, isNetworkActive: false)
        #expect(shortTarget.progress == 0.15)
        #expect(shortTarget.isLikelyToKeepUp)
    }

    @Test func fillRateWaitsForMoreThanATenthOfASecond() {
        var indicator = BufferingIndicator()
        indicator.update(bufferSeconds: 2, atSeconds: 0.05, isNetworkActive: true)
        #expect(indicator.fillRateSecondsPerSecond == 0)
        indicator.update(bufferSeconds: 3, atSeconds: 0.5, isNetworkActive: true)
        #expect(indicator.fillRateSecondsPerSecond == 6)
        // Too soon: the rate and the last check both stay.
        indicator.update(bufferSeconds: 10, atSeconds: 0.55, isNetworkActive: true)
        #expect(indicator.fillRateSecondsPerSecond == 6)
        #expect(indicator.bufferSeconds == 10)
        indicator.update(bufferSeconds: 2, atSeconds: 1.5, isNetworkActive: false)
        #expect(indicator.fillRateSecondsPerSecond == -1)
        // Exactly 0.1 s later, whatever the rounding of 1.6 − 1.5, is not more than 0.1 s.
        indicator.update(bufferSeconds: 2.5, atSeconds: 1.6, isNetworkActive: false)
        #expect(indicator.fillRateSecondsPerSecond == -1)
        indicator.update(bufferSeconds: 2.2, atSeconds: 1.7, isNetworkActive: false)
        #expect(abs(indicator.fillRateSecondsPerSecond - 1) < 1e-12)
    }

    @Test func firstIntervalStartsAtTheGivenTime() {
        var indicator = BufferingIndicator(startSeconds: 10)
        indicator.update(bufferSeconds: 4, atSeconds: 12, isNetworkActive: true)
        #expect(indicator.fillRateSecondsPerSecond == 2)
    }
}
