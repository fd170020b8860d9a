// dash.js 5.1.1's SwitchRequest (streaming/rules/SwitchRequest.js:35-62) and the rules' combination,
// ABRRulesCollection.getMinSwitchRequest (streaming/rules/abr/ABRRulesCollection.js:183-231). Spec section A.4.

/// One rule's answer: a representation, or none for "no change", and its priority (WEAK 0, DEFAULT 0.5, STRONG 1).
public struct DashJSSwitchRequest: Sendable, Equatable {
    public var representation: DashJSRepresentation?
    public var priority: Double

    public init(_ representation: DashJSRepresentation? = nil, priority: Double = 0.5) {
        self.representation = representation
        self.priority = priority
    }

    public static let noChange = DashJSSwitchRequest()

    /// getMinSwitchRequest: per priority the lowest bitrate (strictly lower replaces, so ties keep the earlier rule),
    /// then STRONG's, else DEFAULT's, else WEAK's; proposals of nothing are dropped first.
    public static func minimum(_ requests: [DashJSSwitchRequest]) -> DashJSSwitchRequest {
        var best: [Double: DashJSRepresentation] = [:]
        for request in requests {
            guard let representation = request.representation else { continue }
            if let kept = best[request.priority], !(representation.bitrateKbps < kept.bitrateKbps) { continue }
            best[request.priority] = representation
        }
        for priority in [1.0, 0.5, 0.0] {
            if let representation = best[priority] { return DashJSSwitchRequest(representation, priority: priority) }
        }
        return DashJSSwitchRequest()
    }
}
