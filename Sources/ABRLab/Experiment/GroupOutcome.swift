/// One group of players on one trace's link: each player's outcome, in seat order, and how they
/// shared the link.
public struct GroupOutcome: Sendable {
    /// Position in the plan's group order (traces major, strategy rows minor), 0-based.
    public let index: Int
    public let traceName: String
    /// The strategy every player plays, or the mix's ids joined by `+`.
    public let label: String
    public let players: [SessionOutcome]
    public let metrics: GroupMetrics

    public init(index: Int, traceName: String, label: String, players: [SessionOutcome], metrics: GroupMetrics) {
        self.index = index
        self.traceName = traceName
        self.label = label
        self.players = players
        self.metrics = metrics
    }
}
