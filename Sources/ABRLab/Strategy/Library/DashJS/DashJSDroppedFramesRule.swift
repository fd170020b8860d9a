// dash.js 5.1.1's DroppedFramesRule (streaming/rules/abr/DroppedFramesRule.js:11-60) over its history
// (streaming/rules/DroppedFramesHistory.js:9-39), fed by AbrController (:628-633, 768-775). Off by default. Spec B.5.

public struct DashJSDroppedFramesRule: Sendable {
    private var frames: [String: (dropped: Double, total: Double)] = [:]
    private var lastDropped = 0.0
    private var lastTotal = 0.0
    /// The id of the last rendered video quality; nothing is recorded before the first render.
    public private(set) var renderedRepresentationId: String?

    public init() {}

    /// The cumulative counters' delta since the previous push goes to the rendered representation.
    public mutating func push(droppedVideoFrames: Double, totalVideoFrames: Double) {
        guard let id = renderedRepresentationId, !id.isEmpty else { return }
        let dropped = droppedVideoFrames - lastDropped
        let total = totalVideoFrames - lastTotal
        lastDropped = droppedVideoFrames
        lastTotal = totalVideoFrames
        if let entry = frames[id] {
            frames[id] = (entry.dropped + dropped, entry.total + total)
        } else {
            frames[id] = (dropped, total)
        }
    }

    /// QUALITY_CHANGE_RENDERED for video: push under the previous rendered id, then remember the new one.
    public mutating func qualityRendered(id: String, droppedVideoFrames: Double, totalVideoFrames: Double) {
        push(droppedVideoFrames: droppedVideoFrames, totalVideoFrames: totalVideoFrames)
        renderedRepresentationId = id
    }

    public func switchRequest(_ context: DashJSRulesContext) -> DashJSSwitchRequest {
        let settings = context.settings
        guard context.ladder.count > 1 else { return .noChange }
        for i in 1..<context.ladder.count {
            guard let entry = frames[context.ladder[i].id] else { continue }
            if entry.total > settings.droppedFramesMinimumSampleSize
                && entry.dropped / entry.total > settings.droppedFramesPercentageThreshold {
                return DashJSSwitchRequest(context.ladder[i - 1], priority: settings.droppedFramesRule.priority)
            }
        }
        return .noChange
    }
}
