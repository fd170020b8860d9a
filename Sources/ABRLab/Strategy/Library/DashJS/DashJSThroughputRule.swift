// dash.js 5.1.1's ThroughputRule (streaming/rules/abr/ThroughputRule.js:52-91). Spec section B.1.

public enum DashJSThroughputRule {
    /// The optimal representation for the safe average throughput; nothing while stalled on VOD or while abandoning.
    /// `setsLoadDelayToZero` is true when the rule resets the scheduler's load delay.
    public static func switchRequest(_ context: DashJSRulesContext) -> (request: DashJSSwitchRequest, setsLoadDelayToZero: Bool) {
        let safeKbps = context.safeAverageThroughputKbps
        guard !safeKbps.isNaN, let state = context.bufferState else { return (.noChange, false) }
        guard context.allowsLoad else { return (.noChange, false) }
        guard state == "bufferLoaded" || context.isDynamic else { return (.noChange, false) }
        return (DashJSSwitchRequest(context.ladder.optimal(forKbps: safeKbps), priority: context.settings.throughputRule.priority), true)
    }
}
