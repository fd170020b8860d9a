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

    /// Built where it is used: a stored static would be copied out of its global at every rule's early out.
    public static var noChange: DashJSSwitchRequest { DashJSSwitchRequest() }

    /// getMinSwitchRequest: per priority the lowest bitrate (strictly lower replaces, so ties keep the earlier rule),
    /// then STRONG's, else DEFAULT's, else WEAK's; proposals of nothing, and other priorities, are never chosen.
    public static func minimum(_ requests: some Sequence<DashJSSwitchRequest>) -> DashJSSwitchRequest {
        var strong: DashJSRepresentation?
        var normal: DashJSRepresentation?
        var weak: DashJSRepresentation?
        for request in requests {
            guard let representation = request.representation else { continue }
            switch request.priority {
            case 1: keepLower(&strong, representation)
            case 0.5: keepLower(&normal, representation)
            case 0: keepLower(&weak, representation)
            default: continue
            }
        }
        if let strong { return DashJSSwitchRequest(strong, priority: 1) }
        if let normal { return DashJSSwitchRequest(normal, priority: 0.5) }
        if let weak { return DashJSSwitchRequest(weak, priority: 0) }
        return DashJSSwitchRequest()
    }

    private static func keepLower(_ kept: inout DashJSRepresentation?, _ representation: DashJSRepresentation) {
        if let lowest = kept, !(representation.bitrateKbps < lowest.bitrateKbps) { return }
        kept = representation
    }
}
