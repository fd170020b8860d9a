// A request's progress traces (HTTPLoader.js:184-195) with their byte and time totals, summed as they arrive: left to
// right from 0, the order of AbandonRequestsRule's reduce, so a progress check reads the same totals without
// summing every trace of the request again.

public struct DashJSTraceLog: Sendable, Equatable {
    public private(set) var traces: [DashJSHTTPRequest.Trace] = []
    /// `traces.reduce(0, (a, t) => a + t.b)`.
    public private(set) var bytes = 0.0
    /// `traces.reduce(0, (a, t) => a + t.d)`.
    public private(set) var durationMs = 0.0

    public init() {}

    public init(_ traces: [DashJSHTTPRequest.Trace]) {
        self.traces.reserveCapacity(traces.count)
        for trace in traces { append(trace) }
    }

    public mutating func append(_ trace: DashJSHTTPRequest.Trace) {
        traces.append(trace)
        bytes += trace.bytes
        durationMs += trace.durationMs
    }
}
