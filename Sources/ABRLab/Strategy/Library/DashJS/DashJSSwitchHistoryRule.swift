// dash.js 5.1.1's SwitchHistoryRule (streaming/rules/abr/SwitchHistoryRule.js:11-49) over its history
// (streaming/rules/SwitchRequestHistory.js:41-125). Spec section B.4.

public struct DashJSSwitchHistoryRule: Sendable {
    private struct Totals: Sendable { var drops = 0; var noDrops = 0 }
    private var totals: [String: Totals] = [:]
    /// FIFO of (current id, was a drop) for the last `sampleSize` pushes.
    private var history: [(id: String, drop: Bool)] = []

    public init() {}

    /// Every decision that got a representation pushes (current, proposed), equal or not.
    public mutating func push(current: DashJSRepresentation, proposed: DashJSRepresentation, settings: DashJSSettings) {
        let drop = proposed.absoluteIndex < current.absoluteIndex
        totals[current.id, default: Totals()].drops += drop ? 1 : 0
        totals[current.id, default: Totals()].noDrops += drop ? 0 : 1
        history.append((current.id, drop))
        if history.count > settings.switchHistorySampleSize {
            let removed = history.removeFirst()
            totals[removed.id]!.drops -= removed.drop ? 1 : 0
            totals[removed.id]!.noDrops -= removed.drop ? 0 : 1
        }
    }

    /// Abandonment clears the history.
    public mutating func reset() {
        totals = [:]
        history = []
    }

    public func switchRequest(_ context: DashJSRulesContext) -> DashJSSwitchRequest {
        var drops = 0
        var noDrops = 0
        let settings = context.settings
        // The totals count the pushes in the history, so they reach the sample size only once it is full.
        guard history.count >= settings.switchHistorySampleSize else { return .noChange }
        let representations = context.ladder.representations
        // Read in place: `ladder[i]` would copy each representation to read its id.
        for i in representations.indices {
            guard let entry = totals[representations[i].id] else { continue }
            drops += entry.drops
            noDrops += entry.noDrops
            // drops/0 is Infinity in JS and passes the threshold; 0/0 is NaN and does not.
            let ratio = Double(drops) / Double(noDrops)
            if drops + noDrops >= settings.switchHistorySampleSize && ratio > settings.switchHistorySwitchPercentageThreshold {
                let representation = i > 0 && entry.drops > 0 ? context.ladder[i - 1] : context.ladder[i]
                return DashJSSwitchRequest(representation, priority: settings.switchHistoryRule.priority)
            }
        }
        return .noChange
    }
}
