// What replaying one decision record decides, without the replayer's output line: the strategies read only this,
// and write it as the record's `abrlab` member when records are kept.

struct DashJSAnswer {
    let kind: DashJSRecord.Kind
    /// The representation chosen; for an abandonment check, the one it proposes (nil: it goes on).
    let chosen: DashJSRepresentation?
    /// The load delay a rule set on the scheduler (ms), nil when none did.
    let loadDelayMs: Double?
    /// The playback rate catch-up set, nil when it left the rate.
    let newRate: Double?

    /// The record's `abrlab` member: the chosen index, whether it abandons, the new rate.
    var json: DashJSOutputJSON {
        let index = DashJSOutputJSON.optionalNumber(chosen.map { Double($0.absoluteIndex) })
        return switch kind {
        case .quality: .object([("chosenIndex", index)])
        case .abandon: .object([("abandon", .bool(chosen != nil)), ("chosenIndex", index)])
        case .catchup: .object([("newRate", .optionalNumber(newRate))])
        case .events: .object([])
        }
    }
}
