import ABRLab
import Testing
import TestSupport

/// The catch-up examples of ../shared/specs/dashjs.md section D (target 3 s, default rates ±0.5).
@Suite(.tags(.core), .selectedByTags) struct DashJSCatchupControllerTests {
    func input(latencySeconds: Double, rate: Double = 1) -> DashJSCatchupController.Input {
        DashJSCatchupController.Input(isDynamic: true, catchupEnabled: true, isPaused: false, isSeeking: false, timeSeconds: 10,
                                      currentLiveLatencySeconds: latencySeconds, liveDelaySeconds: 3, bufferLevelSeconds: 2,
                                      playbackRate: rate, playbackStalled: false)
    }

    @Test(arguments: [(3.4, 1.3808), (2.8, 0.7689)])
    func rateFollowsTheLogisticCurve(latencySeconds: Double, expected: Double) throws {
        var controller = DashJSCatchupController()
        let rate = try #require(controller.playbackProgressed(input(latencySeconds: latencySeconds), settings: DashJSSettings()).newRate)
        #expect(abs(rate - expected) < 5e-5)
    }

    @Test func aStepUnderTheMinimumIsNotApplied() {
        var controller = DashJSCatchupController()
        #expect(controller.playbackProgressed(input(latencySeconds: 3.4, rate: 1.37), settings: DashJSSettings()).newRate == nil)
    }

    @Test func driftBeyondTwelveSecondsSeeksToLive() {
        var controller = DashJSCatchupController()
        let outcome = controller.playbackProgressed(input(latencySeconds: 15.5), settings: DashJSSettings())
        #expect(outcome.seekToLive && outcome.newRate == nil)
    }
}
