import ABRLab
import Foundation
import Testing
import TestSupport

/// dash.js's default catch-up, checked against its formula worked by hand:
/// rate = (1 − cpr) + 2·cpr / (1 + e^(−5Δ)), cpr = 0.5 either way by default.
@Suite(.tags(.core), .selectedByTags) struct CatchupControllerTests {
    @Test(arguments: [
        // latency, current rate, expected rate
        (1.5, 1.0, 1.0),                                   // on target: no change
        (2.5, 1.0, 0.5 + 1 / (1 + exp(-5.0))),             // 1 s behind: ≈ 1.4933
        (1.0, 1.0, 0.5 + 1 / (1 + exp(2.5))),              // 0.5 s ahead: ≈ 0.5759
        (1.502, 1.0, 1.0),                                 // 1.0050: under the 0.02 step, kept
        (1.52, 1.0, 0.5 + 1 / (1 + exp(-0.1))),            // 1.0250: applied
        (1.502, 1.3, 0.5 + 1 / (1 + exp(-0.01))),          // far from the current rate: applied
    ])
    func defaultFormula(latency: Double, current: Double, expected: Double) {
        var controller = CatchupController()
        let rate = controller.rate(current: current, latencySeconds: latency, targetSeconds: 1.5, bufferSeconds: 1)
        #expect(abs(rate - expected) < 1e-12)
    }

    @Test func holdsRealTimeAfterAnEmptyBufferUntilHalfTheTargetIsBuffered() {
        var controller = CatchupController()
        controller.bufferDidEmpty()
        #expect(controller.rate(current: 1.4, latencySeconds: 5, targetSeconds: 1.5, bufferSeconds: 0.7) == 1)
        #expect(controller.recovering)
        let rate = controller.rate(current: 1, latencySeconds: 5, targetSeconds: 1.5, bufferSeconds: 0.8)
        #expect(!controller.recovering)
        #expect(abs(rate - (0.5 + 1 / (1 + exp(-17.5)))) < 1e-12)
    }

    @Test func ratesScaleWithTheirLimits() {
        var controller = CatchupController(rateMin: -0.2, rateMax: 1)
        let behind = controller.rate(current: 1, latencySeconds: 3.5, targetSeconds: 1.5, bufferSeconds: 1)
        #expect(abs(behind - (0.0 + 2 / (1 + exp(-10.0)))) < 1e-12)
        let ahead = controller.rate(current: 1, latencySeconds: 0.5, targetSeconds: 1.5, bufferSeconds: 1)
        #expect(abs(ahead - (0.8 + 0.4 / (1 + exp(5.0)))) < 1e-12)
    }
}
