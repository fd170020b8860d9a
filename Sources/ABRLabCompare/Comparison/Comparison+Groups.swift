import ABRLab

/// The request's shared links (`players`, `staggerSeconds`, `mix`, `share`, `weights`), checked
/// before anything runs.
extension Comparison.Request {
    /// Refuses what the grouping settings cannot mean, whatever the strategies and profile.
    func checkGrouping() throws(InputError) {
        if let players, !(1...LinkGrouping.maximumPlayers).contains(players) {
            throw InputError(setting: .players, "must be from 1 to \(LinkGrouping.maximumPlayers)")
        }
        if let staggerSeconds {
            guard staggerSeconds.isFinite, staggerSeconds >= 0 else {
                throw InputError(setting: .staggerS, "must be a number of seconds ≥ 0")
            }
            guard players != nil || !mix.isEmpty else {
                throw InputError(setting: .staggerS, "staggers the players of a group; give \(Setting.players) or \(Setting.mix)")
            }
        }
        _ = try linkShare()
        guard !mix.isEmpty else { return }
        guard strategies.isEmpty else {
            throw InputError(settings: [.mix, .strategies], "\(Setting.mix) replaces the strategy rows; give \(Setting.strategies) or \(Setting.mix), not both")
        }
        if let baseline, !mix.map(StrategyResolver.strategyID(forArgument:)).contains(StrategyResolver.strategyID(forArgument: baseline)) {
            throw InputError(settings: [.baseline, .mix], "the baseline '\(baseline)' takes no seat; name one of the strategies of \(Setting.mix)")
        }
        if let players, mixArguments.count > players {
            throw InputError(settings: [.mix, .players], "\(Setting.mix) names \(mixArguments.count) strategies for \(players) players")
        }
    }

    /// How each group's link is divided: `share` and `weights`, which only a group can use and
    /// which only mean something together.
    func linkShare() throws(InputError) -> LinkShare {
        if share != nil || weights != nil, players == nil, mix.isEmpty {
            throw InputError(setting: share != nil ? .share : .weights, "divides the link among a group's players; give \(Setting.players) or \(Setting.mix)")
        }
        switch (share ?? .equal, weights) {
        case (.equal, nil):
            return .equal
        case (.equal, _?):
            throw InputError(settings: [.weights, .share], "weights the players' shares of the link; give \(Setting.share) weighted")
        case (.weighted, nil):
            throw InputError(settings: [.share, .weights], "weighted sharing needs \(Setting.weights): a positive weight for each player, comma-separated")
        case (.weighted, let weights?):
            let checked = try LinkShare.Weights(weights)
            if let players { try checked.check(players: players) }
            return .weighted(checked)
        }
    }

    /// The mix's strategies, each once, in the order first named.
    var mixArguments: [String] {
        var seen = Set<String>()
        return mix.filter { seen.insert($0).inserted }
    }

    /// How the plan seats its players, `strategies` being the plan's rows; `nil` when every
    /// session plays alone (no grouping asked for, or one player without a mix).
    func grouping(strategies: [StrategyDescriptor], profile: EmulationProfile) throws(InputError) -> LinkGrouping? {
        guard players != nil || !mix.isEmpty else { return nil }
        if let refusal = LinkGroup.refusal(for: profile) { throw InputError(setting: .players, refusal) }
        let count = players ?? mix.count
        let share = try linkShare()
        guard !mix.isEmpty else {
            return count == 1 ? nil : LinkGrouping(players: count, staggerSeconds: staggerSeconds ?? 0, share: share)
        }
        var order: [Int] = []
        for argument in mix {
            let id = StrategyResolver.strategyID(forArgument: argument)
            guard let index = strategies.firstIndex(where: { $0.id == id }) else {
                throw InputError(setting: .mix, "'\(argument)' is not one strategy of the run (a folder or a swept row cannot take a seat)")
            }
            order.append(index)
        }
        return LinkGrouping(players: count, staggerSeconds: staggerSeconds ?? 0, seats: .mix(order: order), share: share)
    }
}
