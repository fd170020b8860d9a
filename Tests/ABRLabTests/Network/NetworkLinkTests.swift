import ABRLab
import Testing
import TestSupport

/// Sabre's network arithmetic, checked by hand on a two-period trace: 1 s at 1000 kbps with
/// 100 ms latency, then 1 s at 2000 kbps with 300 ms latency.
@Suite(.tags(.core), .selectedByTags) struct NetworkLinkTests {
    static func link() throws -> NetworkLink {
        let trace = try NetworkTrace(
            name: "two", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [1_000_000, 2_000_000], latencySeconds: [0.1, 0.3]
        )
        return NetworkLink(trace: trace, fallbackLatencyMs: 80)
    }

    @Test func latencyIsPaidInTraceTime() throws {
        var link = try Self.link()
        #expect(try link.payLatency() == 100)
        #expect(link.timeMs == 100)
    }

    @Test func latencyIsProRatedAcrossABoundary() throws {
        var link = try Self.link()
        try link.idle(milliseconds: 950)
        // 50 ms pays half a unit at 100 ms; the other half costs 150 ms at the next period's 300 ms.
        #expect(try link.payLatency() == 200)
        #expect(link.period == 1)
        #expect(link.timeMs == 1150)
    }

    @Test func transfersWalkPeriodsPiecewise() throws {
        var link = try Self.link()
        try link.idle(milliseconds: 500)
        // 500 ms at 1000 bits/ms carries 500 000 bits; the other 200 000 take 100 ms at 2000.
        #expect(try link.transfer(bits: 700_000) == 600)
        #expect(link.timeMs == 1100)
    }

    @Test func theTraceLoops() throws {
        var link = try Self.link()
        try link.idle(milliseconds: 2500)
        #expect(link.period == 0)
        #expect(link.remainingMs == 500)
        #expect(link.timeMs == 2500)
    }

    @Test func aWaitEndingOnABoundaryStaysInItsPeriod() throws {
        var link = try Self.link()
        try link.idle(milliseconds: 1000)
        #expect(link.period == 0)
        #expect(link.remainingMs == 0)
    }

    /// A walk stops at the first period boundary past its time limit, however slow the trace or
    /// long its latency: 1e-300 bits/s and 1e300 s of latency would otherwise never finish.
    @Test func walksStopPastTheTimeLimit() throws {
        let trace = try NetworkTrace(
            name: "hostile", periodEndSeconds: [1, 2], bandwidthBitsPerSecond: [1e-300, 1e-300], latencySeconds: [1e300, 1e300]
        )
        var slow = NetworkLink(trace: trace, fallbackLatencyMs: 80, limitMs: 10_000)
        #expect(throws: TraceWalkStop.timeLimit) { try slow.transfer(bits: 1000) }
        #expect(slow.timeMs > 10_000 && slow.timeMs <= 11_000)
        var late = NetworkLink(trace: trace, fallbackLatencyMs: 80, limitMs: 10_000)
        #expect(throws: TraceWalkStop.timeLimit) { try late.payLatency() }
        var idle = NetworkLink(trace: trace, fallbackLatencyMs: 80, limitMs: 10_000)
        #expect(throws: TraceWalkStop.timeLimit) { try idle.idle(milliseconds: 1e303) }
    }

    @Test func walksStopWhenTheirStepsRunOut() throws {
        let trace = try NetworkTrace(name: "fine", periodEndSeconds: [1e-6, 2e-6], bandwidthBitsPerSecond: [1, 1])
        var link = NetworkLink(trace: trace, fallbackLatencyMs: 0, stepLimit: 1000)
        #expect(throws: TraceWalkStop.stepLimit) { try link.transfer(bits: 1e6) }
        #expect(link.stepsLeft == 0)
    }
}
