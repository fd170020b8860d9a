import ABRLab

extension RunManifest {
    /// How the run's players shared each trace's link (``LinkGrouping``), in `run.json`'s
    /// `shared_link`; absent when every session played alone.
    public struct SharedLink: Encodable {
        let players: Int
        let staggerSeconds: Double
        /// The strategy ids of the mix in the order given; absent without a mix.
        let mix: [String]?
        /// `equal` or `weighted`.
        let share: String
        /// The weights as given; seat k (1-based) has weight `weights[(k − 1) % count]`. Absent
        /// under equal sharing.
        let weights: [Double]?

        enum CodingKeys: String, CodingKey { case players, staggerSeconds = "stagger_s", mix, share, weights }

        init?(_ grouping: LinkGrouping?, strategies: [StrategyDescriptor]) {
            guard let grouping else { return nil }
            players = grouping.players
            staggerSeconds = grouping.staggerSeconds
            switch grouping.seats {
            case .eachStrategy: mix = nil
            case .mix(let order): mix = order.map { strategies[$0].id }
            }
            share = grouping.share.mode.rawValue
            switch grouping.share {
            case .equal: weights = nil
            case .weighted(let given): weights = given.values
            }
        }
    }
}
