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
}
