// What AbandonRequestsRule reads of a request's progress traces (HTTPLoader.js:184-195): how many, the first, and
// the byte and time totals, summed as they arrive left to right from 0 (the order of the rule's reduce). No trace is
// kept: a progress check then reads the same totals without summing, storing or copying the request's traces.

public struct DashJSTraceLog: Sendable, Equatable {
    /// `traces.length`.
    public private(set) var count = 0
    /// `traces[0]`: the request's latency, which the rule leaves out of the throughput.
    public private(set) var first: DashJSHTTPRequest.Trace?
    /// `traces.reduce(0, (a, t) => a + t.b)`.
    public private(set) var bytes = 0.0
    /// `traces.reduce(0, (a, t) => a + t.d)`.
    public private(set) var durationMs = 0.0

    public init() {}

    public init(_ traces: [DashJSHTTPRequest.Trace]) {
        for trace in traces { append(trace) }
    }

    public mutating func append(_ trace: DashJSHTTPRequest.Trace) {
        if count == 0 { first = trace }
        count += 1
        bytes += trace.bytes
        durationMs += trace.durationMs
    }
}
