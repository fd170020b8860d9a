// dash.js 5.1.1's InsufficientBufferRule (streaming/rules/abr/InsufficientBufferRule.js:71-143). Spec section B.3.

public struct DashJSInsufficientBufferRule: Sendable {
    /// Segments still to be appended before the rule speaks (after start-up or a seek).
    public private(set) var ignoreCount: Int

    public init(settings: DashJSSettings) { ignoreCount = settings.insufficientBufferSegmentIgnoreCount }

    /// BYTES_APPENDED_END_FRAGMENT with a numeric start time.
    public mutating func bytesAppended() { ignoreCount = max(0, ignoreCount - 1) }

    /// PLAYBACK_SEEKING.
    public mutating func seeking(settings: DashJSSettings) { ignoreCount = settings.insufficientBufferSegmentIgnoreCount }

    public func switchRequest(_ context: DashJSRulesContext) -> DashJSSwitchRequest {
        guard !context.lowLatencyMode, ignoreCount <= 0,
              let fragmentDuration = context.current.fragmentDurationSeconds, fragmentDuration != 0, !fragmentDuration.isNaN
        else { return .noChange }
        if context.bufferState == "bufferStalled" {
            // The stalled branch leaves the priority at DEFAULT rather than the setting, as upstream does.
            return DashJSSwitchRequest(context.ladder.optimal(forKbps: 0))
        }
        // The average without the safety factor: the rule applies its own 0.7.
        let bitrateKbps = context.averageThroughputKbps * context.settings.insufficientBufferThroughputSafetyFactor
            * context.bufferLevelSeconds / fragmentDuration
        if bitrateKbps.isNaN || bitrateKbps <= 0 { return .noChange }
        return DashJSSwitchRequest(context.ladder.optimal(forKbps: bitrateKbps), priority: context.settings.insufficientBufferRule.priority)
    }
}
