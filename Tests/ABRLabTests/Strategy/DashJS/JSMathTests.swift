import ABRLab
import Foundation
import Testing

/// JSMath answers V8's Math.exp / Math.log / Math.pow bits (Node 20, under which dash.js is replayed), including inputs
/// where glibc answers another ulp. The cases come from scripts/jsmath-fixture.
@Suite(.tags(.core), .selectedByTags) struct JSMathTests {
    static func answer(_ op: String, _ a: Double, _ b: Double) -> Double {
        switch op {
        case "e": JSMath.exp(a)
        case "l": JSMath.log(a)
        default: JSMath.pow(a, b)
        }
    }

    @Test func answersV8sBitsOnEveryFixtureCase() {
        var wrong: [String] = []
        for c in JSMathFixture.cases {
            let a = Double(bitPattern: c.a), b = Double(bitPattern: c.b), v8 = Double(bitPattern: c.v8)
            let got = Self.answer(c.op, a, b)
            // JS has one NaN; any NaN payload is the same answer.
            if got.bitPattern != c.v8 && !(got.isNaN && v8.isNaN) { wrong.append("\(c.op)(\(a), \(b)) = \(got), V8 \(v8)") }
        }
        #expect(JSMathFixture.cases.count > 400)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }

    /// The two catch-up drifts measured on Traces/3g live, where glibc's e^(−5·drift) made newRate one ulp off.
    @Test(arguments: [(1.595, 0.6218850564650202, 1.1165665045213191), (1.934, 0.1141776169108365, 1.3975229665559028)])
    func catchupRateIsDashJSsOwn(latencySeconds: Double, power: Double, rate: Double) throws {
        #expect(JSMath.pow(M_E, -((latencySeconds - 1.5) * 5)) == power)
        var controller = DashJSCatchupController()
        let input = DashJSCatchupController.Input(isDynamic: true, catchupEnabled: true, isPaused: false, isSeeking: false, timeSeconds: 10,
                                                  currentLiveLatencySeconds: latencySeconds, liveDelaySeconds: 1.5,
                                                  bufferLevelSeconds: 2, playbackRate: 1, playbackStalled: false)
        #expect(try #require(controller.playbackProgressed(input, settings: DashJSSettings()).newRate) == rate)
    }

    /// `square` is `pow(x, 2)`'s answer for every x: the fixture's bases and the special values, bit for bit.
    @Test func squareIsPowOfTwo() {
        let specials: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                  -.greatestFiniteMagnitude, 1e-160, -3.5, 0.1]
        for x in specials + JSMathFixture.cases.map({ Double(bitPattern: $0.a) }) {
            #expect(JSMath.square(x).bitPattern == JSMath.pow(x, 2).bitPattern || (x.isNaN && JSMath.pow(x, 2).isNaN), "\(x)")
        }
    }

    @Test func specialValuesFollowJavaScript() {
        #expect(JSMath.pow(1, .infinity).isNaN && JSMath.pow(-1, -.infinity).isNaN)  // NaN in JS, 1 in C
        #expect(JSMath.pow(.nan, 0) == 1 && JSMath.pow(-8, 1.0 / 3).isNaN)
        #expect(JSMath.pow(-0.0, -3) == -.infinity && JSMath.pow(-2, 3) == -8)
        #expect(JSMath.pow(2, -1074) == .leastNonzeroMagnitude && JSMath.pow(2, 1024) == .infinity)
        #expect(JSMath.exp(1) == M_E && JSMath.exp(-.infinity) == 0 && JSMath.exp(710) == .infinity)
        #expect(JSMath.log(0) == -.infinity && JSMath.log(-1).isNaN && JSMath.log(1) == 0)
        // dash.js's `Math.pow(x, 2)` is x·x, as the LoLP rule relies on.
        for x in [0.1, 1.0 / 3, 4_300_000.7, -2.5e-3] { #expect(JSMath.pow(x, 2) == x * x) }
    }
}
