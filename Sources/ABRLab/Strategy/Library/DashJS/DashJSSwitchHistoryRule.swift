// dash.js 5.1.1's SwitchHistoryRule (streaming/rules/abr/SwitchHistoryRule.js:11-49) over its history
// (streaming/rules/SwitchRequestHistory.js:41-125). Spec section B.4.

public struct DashJSSwitchHistoryRule: Sendable {
    private struct Totals: Sendable {
        var id: String
        var drops = 0
        var noDrops = 0
    }

    /// Upstream's totals by representation id, one entry per id pushed since the last reset (kept at zero, as
    /// upstream keeps them); searched in a line rather than hashed, as a ladder has a handful of ids.
    private var totals: [Totals] = []
    /// FIFO of (current id, was a drop) for the last `sampleSize` pushes.
    private var history: [(id: String, drop: Bool)] = []

    public init() {}

    private func slot(_ id: String) -> Int? { totals.firstIndex { $0.id == id } }

    /// Every decision that got a representation pushes (current, proposed), equal or not.
    public mutating func push(current: DashJSRepresentation, proposed: DashJSRepresentation, settings: DashJSSettings) {
        let drop = proposed.absoluteIndex < current.absoluteIndex
        let index = slot(current.id) ?? {
            totals.append(Totals(id: current.id))
            return totals.count - 1
        }()
        totals[index].drops += drop ? 1 : 0
        totals[index].noDrops += drop ? 0 : 1
        history.append((current.id, drop))
        if history.count > settings.switchHistorySampleSize {
            let removed = history.removeFirst()
            let removedIndex = slot(removed.id)!
            totals[removedIndex].drops -= removed.drop ? 1 : 0
            totals[removedIndex].noDrops -= removed.drop ? 0 : 1
        }
    }

    /// Abandonment clears the history.
    public mutating func reset() {
        totals = []
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
            guard let index = slot(representations[i].id) else { continue }
            let entryDrops = totals[index].drops
            drops += entryDrops
            noDrops += totals[index].noDrops
            // drops/0 is Infinity in JS and passes the threshold; 0/0 is NaN and does not.
            let ratio = Double(drops) / Double(noDrops)
            if drops + noDrops >= settings.switchHistorySampleSize && ratio > settings.switchHistorySwitchPercentageThreshold {
                let representation = i > 0 && entryDrops > 0 ? context.ladder[i - 1] : context.ladder[i]
                return DashJSSwitchRequest(representation, priority: settings.switchHistoryRule.priority)
            }
        }
        return .noChange
    }
}
