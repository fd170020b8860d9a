/// How a comparison seats its players on shared links (``LinkGroup``): each strategy row and
/// trace a group of `players` players of that strategy, or each trace one group whose seats
/// take the strategies of a mix in turn; and how each link is divided among its players.
public struct LinkGrouping: Equatable, Sendable {
    /// Who sits in a group.
    public enum Seats: Equatable, Sendable {
        /// One group per strategy row and trace, every player of that strategy.
        case eachStrategy
        /// One group per trace; seat `k` plays the plan's strategy `order[k % order.count]`.
        case mix(order: [Int])
    }

    public var players: Int
    public var staggerSeconds: Double
    public var seats: Seats
    public var share: LinkShare

    /// The most players a group may seat.
    public static let maximumPlayers = 1024

    public init(players: Int, staggerSeconds: Double = 0, seats: Seats = .eachStrategy, share: LinkShare = .equal) {
        self.players = players
        self.staggerSeconds = staggerSeconds
        self.seats = seats
        self.share = share
    }
}
