@testable import ABRLab
import Testing
import TestSupport

/// JavaScript's number text and rounding, which the replayer's output and dash.js's buffer metric rely on.
@Suite(.tags(.core), .selectedByTags) struct DashJSNumberTextTests {
    @Test(arguments: [(318.0, "318"), (286.2, "286.2"), (0.000001, "0.000001"), (0.0000001, "1e-7"), (1e21, "1e+21"),
                      (123456789012345680000, "123456789012345680000"), (-0.5, "-0.5"), (1.5e-10, "1.5e-10"), (0, "0")])
    func printsAsJavaScriptDoes(value: Double, text: String) {
        #expect(DashJSNumberText.javaScript(value) == text)
    }

    @Test func roundsHalvesUpAndBufferLevelsToMilliseconds() {
        #expect(jsRound(2.5) == 3 && jsRound(-2.5) == -2 && jsRound(0.49999999999999994) == 0)
        #expect(round10Milli(7523 * 1000 / 1000 / 1000) == 7.523)
        #expect(round10Milli(1.0005) == 1.001)
    }

    /// Doubles of every scale, and the ones next to each thousandth's and hundredth's half, where the product and
    /// the text part ways.
    static func samples() -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var values: [Double] = [0, -0.0, 0.0005, 1.0005, 2.675, 1.005, -1.0005, 0x1p50 / 1000, 1e21, 1e-300, .nan, .infinity]
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / 0x1p53
            let value = unit * [1, 40, 1_000, 1e6, 1e12][Int(state % 5)]
            values.append(value)
            values.append(-value)
        }
        for k in 0..<5_000 {
            for half in [(Double(k) + 0.5) / 1000, (Double(k) + 0.5) / 100] {
                values += [half, half.nextUp, half.nextDown, half.nextUp.nextUp, half.nextDown.nextDown]
            }
        }
        return values
    }

    @Test func roundsAsTheTextDoes() {
        for value in Self.samples() {
            let fast = round10Milli(value)
            let text = round10MilliThroughText(value)
            #expect(fast.bitPattern == text.bitPattern || (fast.isNaN && text.isNaN), "round10 \(value)")
            let fixed = DashJSAbandonRequestsRule.toFixed2(value)
            let fixedText = DashJSAbandonRequestsRule.toFixed2ThroughText(value)
            #expect(fixed.bitPattern == fixedText.bitPattern || (fixed.isNaN && fixedText.isNaN), "toFixed2 \(value)")
        }
    }
}
