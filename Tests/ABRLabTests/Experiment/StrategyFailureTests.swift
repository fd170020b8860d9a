import ABRLab
import Testing
import TestSupport

/// Each way a strategy ends its session, as the one line every face prints, and as what failed.
@Suite(.tags(.core), .selectedByTags) struct StrategyFailureTests {
    @Test(arguments: [
        (StrategyFailure.threw(error: "boom", segment: 2, trace: "t1"), "boom (segment 3 of t1)"),
        (.threw(error: "boom", segment: nil, trace: "t1"), "boom (setting up t1)"),
        (.delayRefused(session: "s", segment: 0, delaySeconds: -1), "s: asked for a delay of -1 s before segment 1; delays are finite and ≥ 0"),
        (.rateWithoutLive(session: "s", segment: 4), "s: asked for a playback rate before segment 5; rates need the live profile"),
        (.rateOutOfRange(session: "s", segment: 1, rate: 3, atSeconds: nil), "s: asked for a playback rate of 3 before segment 2; rates are 0.5…2"),
        (.rateOutOfRange(session: "s", segment: 1, rate: 0.25, atSeconds: 7.5), "s: asked for a playback rate of 0.25 at 7.5 s (segment 2); rates are 0.5…2"),
        (.abandonmentLevelNotLower(session: "s", level: 3, downloadingLevel: 2), "s: the abandonment check returned level 3 while downloading level 2; it must return a lower level or nothing"),
        (.recheckAtNaN(session: "s", segment: 6), "s: the abandonment check asked to recheck at NaN while downloading segment 7"),
    ] as [(StrategyFailure, String)])
    func aFailureSaysWhatTheStrategyDid(failure: StrategyFailure, line: String) {
        let error = EmulationError.strategyFailed(failure)
        #expect(error.description == line)
        #expect(error.subject == .strategy)
        #expect(error.settingsError == nil)
    }
}
