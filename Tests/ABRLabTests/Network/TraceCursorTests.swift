import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct TraceCursorTests {
    // 1 MB/s for 1 s, then 2 MB/s for 1 s.
    let trace: NetworkTrace

    init() throws {
        trace = try NetworkTrace(name: "steps", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [8_000_000, 16_000_000])
    }

    @Test func downloadCrossesAPeriodBoundary() throws {
        var cursor = TraceCursor(trace: trace)
        let seconds = try cursor.download(sizeBytes: 1_500_000, payloadFraction: 1, limitSeconds: 100)
        #expect(seconds == 1.25)
        #expect(cursor.period == 1)
        #expect(cursor.timeSeconds == 1.25)
    }

    @Test func downloadWrapsAtTheLoopPoint() throws {
        var cursor = TraceCursor(trace: trace)
        // 3 MB per pass; 3.5 MB = one pass (2 s) + 0.5 MB at 1 MB/s after wrapping to time 0.
        let seconds = try cursor.download(sizeBytes: 3_500_000, payloadFraction: 1, limitSeconds: 100)
        #expect(seconds == 2.5)
        #expect(cursor.period == 0)
        #expect(cursor.timeSeconds == 0.5)
        // A period used up exactly is left behind, as in Pensieve (`sent + payload > size` ends the walk).
        let rest = try cursor.download(sizeBytes: 500_000, payloadFraction: 1, limitSeconds: 100)
        #expect(rest == 0.5)
        #expect(cursor.period == 1)
        #expect(cursor.timeSeconds == 1)
    }

    @Test func payloadFractionSlowsTheTransfer() throws {
        var cursor = TraceCursor(trace: trace)
        let seconds = try cursor.download(sizeBytes: 500_000, payloadFraction: 0.5, limitSeconds: 100)
        #expect(seconds == 1)
    }

    @Test func advanceSkipsTimeAcrossTheLoop() throws {
        var cursor = TraceCursor(trace: trace)
        try cursor.advance(milliseconds: 2_500)
        #expect(cursor.period == 0)
        #expect(cursor.timeSeconds == 0.5)
    }

    @Test func downloadStopsAtTheLimit() throws {
        let slow = try NetworkTrace(name: "slow", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [8, 0])
        var cursor = TraceCursor(trace: slow)
        #expect(throws: TraceWalkStop.timeLimit) { try cursor.download(sizeBytes: 1_000_000, payloadFraction: 1, limitSeconds: 50) }
    }

    /// Each period boundary crossed spends a step: a walk over a trace cut too finely stops.
    @Test func walksStopWhenTheirStepsRunOut() throws {
        var cursor = TraceCursor(trace: trace, stepLimit: 3)
        try cursor.advance(milliseconds: 2_500)
        #expect(cursor.stepsLeft == 1)
        #expect(throws: TraceWalkStop.stepLimit) { try cursor.advance(milliseconds: 2_000) }
        var downloading = TraceCursor(trace: trace, stepLimit: 1)
        #expect(throws: TraceWalkStop.stepLimit) {
            try downloading.download(sizeBytes: 10_000_000, payloadFraction: 1, limitSeconds: 100)
        }
        var spending = TraceCursor(trace: trace, stepLimit: 1)
        try spending.spendStep()
        #expect(throws: TraceWalkStop.stepLimit) { try spending.spendStep() }
    }
}
