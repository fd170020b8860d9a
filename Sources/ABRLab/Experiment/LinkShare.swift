/// How a shared link (``LinkGroup``) divides its capacity among the players in a data phase.
public enum LinkShare: Equatable, Sendable, CustomStringConvertible {
    /// Each sending player takes 1 / n of the link (processor sharing).
    case equal
    /// Sending player i takes w_i / Σ w_j of the link, the sum over the sending players
    /// (weighted processor sharing, or GPS).
    case weighted(Weights)

    /// The names a front end gives the two ways.
    public enum Mode: String, CaseIterable, Sendable {
        case equal
        case weighted
    }

    /// Positive, finite weights, at least one: player `k` (0-based) takes `values[k % count]`.
    public struct Weights: Equatable, Sendable {
        public let values: [Double]

        public init(_ values: [Double]) throws(InputError) {
            guard !values.isEmpty, values.count <= LinkGrouping.maximumPlayers else {
                throw InputError(setting: .weights, "must list from 1 to \(LinkGrouping.maximumPlayers) weights")
            }
            if let bad = values.first(where: { !($0.isFinite && $0 > 0) }) {
                throw InputError(setting: .weights, "each weight must be a positive finite number, not \(NumberText.readable(bad))")
            }
            // Relative weights and their sum over every seat stay far from overflow, and no
            // player's share is too small to finish a segment.
            if let smallest = values.min(), let largest = values.max(), largest / Self.maximumRatio > smallest {
                throw InputError(
                    setting: .weights,
                    "the largest weight may be at most \(NumberText.readable(Self.maximumRatio)) times the smallest, not \(NumberText.readable(largest)) against \(NumberText.readable(smallest))"
                )
            }
            self.values = values
        }

        /// How many times the smallest weight the largest may be.
        public static let maximumRatio = 1e6

        /// Refuses more weights than `players` seats: the extra ones would weigh no one.
        public func check(players: Int) throws(InputError) {
            guard values.count <= players else {
                throw InputError(settings: [.weights, .players], "\(Setting.weights) gives \(values.count) weights for \(players) players")
            }
        }
    }

    public var mode: Mode {
        switch self {
        case .equal: .equal
        case .weighted: .weighted
        }
    }

    /// Player `index`'s (0-based) weight: 1 each under equal sharing.
    public func weight(ofPlayer index: Int) -> Double {
        switch self {
        case .equal: 1
        case .weighted(let weights): weights.values[index % weights.values.count]
        }
    }

    /// The weights of `players` seats over the smallest of them: equal weights are all exactly 1,
    /// so their shares are the equal share's to the bit, and integer ratios stay exact.
    public func relativeWeights(players: Int) -> [Double] {
        let weights = (0..<players).map(weight(ofPlayer:))
        guard let smallest = weights.min() else { return [] }
        return weights.map { $0 / smallest }
    }

    /// `equal`, or `weighted` and the weights as given, as the plan's fingerprint records it.
    public var description: String {
        switch self {
        case .equal: "equal"
        case .weighted(let weights): "weighted \(weights.values.map(\.description).joined(separator: ","))"
        }
    }
}
