/// A plan whose players share each trace's link in groups (``LinkGrouping``): group `g` plays
/// on trace `g / groupsPerTrace`, its players are sessions `g × players …` of the plan, and a
/// trace's groups are whole in its sessions, so a shard or a checkpoint never splits a group.
extension ExperimentPlan {
    /// Groups on each trace: one per strategy row, or one mix.
    public var groupsPerTrace: Int {
        switch grouping?.seats {
        case .mix: 1
        case .eachStrategy, nil: strategies.count
        }
    }

    /// Groups in the whole plan.
    public var groupCount: Int { groupsPerTrace * traces.count }

    /// The strategy (index into ``strategies``) of each seat of group `index`.
    public func seats(ofGroup index: Int) -> [Int] {
        guard let grouping else { preconditionFailure("the plan has no groups") }
        switch grouping.seats {
        case .eachStrategy: return Array(repeating: index % strategies.count, count: grouping.players)
        case .mix(let order): return (0..<grouping.players).map { order[$0 % order.count] }
        }
    }

    func validate(_ grouping: LinkGrouping) throws(InputError) {
        guard grouping.players >= 1, grouping.players <= LinkGrouping.maximumPlayers else {
            throw InputError(setting: .players, "must be from 1 to \(LinkGrouping.maximumPlayers)")
        }
        if let refusal = LinkGroup.refusal(for: emulator.profile) { throw InputError(setting: .players, refusal) }
        guard grouping.staggerSeconds.isFinite, grouping.staggerSeconds >= 0,
              Double(grouping.players - 1) * grouping.staggerSeconds <= emulator.profile.maxSessionSeconds else {
            throw InputError(setting: .staggerS, "must be a number of seconds ≥ 0 that starts the last player within the session limit (\(NumberText.readable(emulator.profile.maxSessionSeconds)) s)")
        }
        if case .weighted(let weights) = grouping.share { try weights.check(players: grouping.players) }
        if case .mix(let order) = grouping.seats {
            guard !order.isEmpty, order.allSatisfy(strategies.indices.contains) else { throw InputError(setting: .mix, "names no strategy of the run") }
            guard order.count <= grouping.players else {
                throw InputError(settings: [.mix, .players], "\(Setting.mix) lists \(order.count) strategies for \(grouping.players) players")
            }
        }
    }

    /// Plays group `index` of the fixed order: its players on one link, each a fresh instance of
    /// its strategy with a seed of its own (the first player's is the single session's), scored
    /// as single sessions are; then the group's measures.
    public func runGroup(index: Int) -> GroupOutcome {
        guard let grouping else { preconditionFailure("the plan has no groups") }
        let trace = traces[index / groupsPerTrace]
        let seats = seats(ofGroup: index)
        let ids = seats.map { strategies[$0].id }
        let seeds = ids.indices.map { seat in
            SessionSeed.derive(seed: seed, strategyID: seat == 0 ? ids[seat] : "\(ids[seat])#\(seat + 1)", traceName: trace.name)
        }
        var players: [LinkGroup.Player?] = []
        var failures: [Int: any Error] = [:]
        for (seat, strategy) in seats.enumerated() {
            do { players.append(LinkGroup.Player(strategyID: ids[seat], seed: seeds[seat], strategy: try strategies[strategy].makeStrategy())) } catch {
                players.append(nil)
                failures[seat] = error
            }
        }
        var results: [Result<SessionResult, any Error>] = []
        do {
            let group = try LinkGroup(emulator: emulator, trace: trace, video: video, staggerSeconds: grouping.staggerSeconds, share: grouping.share)
            let played = failures.isEmpty ? group.play(players.compactMap { $0 }) : []
            results = seats.indices.map { seat in failures[seat].map { .failure($0) } ?? played[seat].mapError { $0 } }
        } catch {
            results = seats.indices.map { _ in .failure(error) }
        }
        if !failures.isEmpty {
            // A player that could not be made leaves its group unplayed: every seat says why.
            let (seat, error) = failures.min { $0.key < $1.key }!
            results = seats.indices.map { _ in .failure(GroupFailure(seat: seat, error: error)) }
        }
        let outcomes = seats.indices.map { seat in
            outcome(index: index * grouping.players + seat, strategyID: ids[seat], traceName: trace.name, seed: seeds[seat], result: results[seat])
        }
        let metrics = GroupMetrics(players: outcomes.enumerated().compactMap { seat, outcome in
            guard let result = outcome.result, let metrics = outcome.metrics else { return nil }
            return GroupMetrics.Player(
                startSeconds: Double(seat) * grouping.staggerSeconds, segments: result.segments,
                meanBitrateKbps: metrics.averageBitrateKbps, qoePerSegment: metrics.qoeMean
            )
        }, trace: trace, bandwidthMultiplier: emulator.profile.segmentBufferSettings?.bandwidthMultiplier ?? 1, qoeRange: qoeRange)
        var seen: [String] = []
        let label = ids.filter { id in
            guard !seen.contains(id) else { return false }
            seen.append(id)
            return true
        }.joined(separator: "+")
        return GroupOutcome(index: index, traceName: trace.name, label: label, players: outcomes, metrics: metrics)
    }

    /// The built-in QoE model's per-segment scale [L, H]: the lowest and highest level's utility
    /// with nothing taken off; `nil` for a scripted model, whose scale abrlab does not know.
    var qoeRange: ClosedRange<Double>? {
        guard customQoE == nil, let top = video.ladder.indices.last else { return nil }
        let low = qoe.utility(level: 0, ladder: video.ladder)
        let high = qoe.utility(level: top, ladder: video.ladder)
        return high > low ? low...high : nil
    }
}

/// A group that could not be seated: one of its players' strategies could not be made.
struct GroupFailure: Error, CustomStringConvertible {
    let seat: Int
    let error: any Error

    var description: String { "player \(seat + 1) of the group could not start: \(String(describing: error))" }
}
