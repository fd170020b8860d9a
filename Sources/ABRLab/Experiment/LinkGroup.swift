/// Several players on one trace's link: a fluid processor-sharing bottleneck.
///
/// At every instant the link's capacity (the trace's bandwidth, times the profile's bandwidth
/// multiplier) is divided among the players whose requests are in their data phase, equally or
/// in proportion to their weights (``LinkShare``); a request's latency, an idle delay, a
/// full-buffer wait and a finished player take no share.
/// The division is recomputed at every event of any player: a request's first byte, a
/// transfer's end (or abandonment) and a period boundary of the trace. Player `k` (0-based)
/// joins the link `k × staggerSeconds` into the trace; its own session time starts then, so
/// each player's records read as a single session's do. Each player sees only the throughput
/// of its own transfers.
///
/// Each player is a session of a model that can share a link (``SharedLinkSession``), answered
/// by its own strategy through the batch path's loop (``SessionStrategy``); with one player the
/// group plays exactly the single session, byte for byte. A player whose session fails leaves
/// the link; the others go on.
public struct LinkGroup: Sendable {
    /// One seat on the link: who plays and with which seed.
    public struct Player {
        public var strategyID: String
        public var seed: UInt64
        public var strategy: any SessionStrategy

        public init(strategyID: String, seed: UInt64, strategy: any SessionStrategy) {
            self.strategyID = strategyID
            self.seed = seed
            self.strategy = strategy
        }
    }

    public let emulator: SessionEmulator
    public let trace: NetworkTrace
    public let video: Video
    public let staggerSeconds: Double
    public let share: LinkShare

    /// Two events closer than this are one: the players' clocks drift by rounding only.
    static let toleranceSeconds = 1e-9

    public init(
        emulator: SessionEmulator, trace: NetworkTrace, video: Video, staggerSeconds: Double = 0, share: LinkShare = .equal
    ) throws(InputError) {
        if let refusal = Self.refusal(for: emulator.profile) { throw InputError(setting: .players, refusal) }
        guard staggerSeconds.isFinite, staggerSeconds >= 0, staggerSeconds <= emulator.profile.maxSessionSeconds else {
            throw InputError(setting: .staggerS, "must be a number of seconds ≥ 0, at most the session limit (\(NumberText.readable(emulator.profile.maxSessionSeconds)) s)")
        }
        self.emulator = emulator
        self.trace = trace
        self.video = video
        self.staggerSeconds = staggerSeconds
        self.share = share
    }

    /// Why `profile`'s players cannot share a link, or `nil` when they can.
    public static func refusal(for profile: EmulationProfile) -> InputText? {
        switch profile.mechanics {
        case .wholeTransfers(let settings):
            guard settings.latencyConsumesTraceTime else {
                return "profile \(profile.name) adds each request's latency without moving the trace, so its players keep no common clock on a shared link; use \(Setting.profile) default or sabre"
            }
            return nil
        case .segmentBuffer:
            return nil
        case .live:
            return "profile \(profile.name) paces each player by its own live edge and chunked transfers, which the shared link does not model; use \(Setting.profile) default or sabre"
        }
    }

    /// When player `index` (0-based) joins the link, seconds into the trace.
    public func startSeconds(player index: Int) -> Double {
        Double(index) * staggerSeconds
    }

    /// Plays `players` on the link to the end of the last one: each player's result, or the
    /// error that ended its session, in seat order.
    public func play(_ players: [Player]) -> [Result<SessionResult, EmulationError>] {
        var results = [Result<SessionResult, EmulationError>?](repeating: nil, count: players.count)
        var seats: [Seat] = []
        seats.reserveCapacity(players.count)
        let weights = share.relativeWeights(players: players.count)
        // The group has one session's steps in all, so its work grows no faster than one
        // session's however many players share the link.
        var seatEmulator = emulator
        seatEmulator.profile.maxSessionSteps = Self.stepsPerPlayer(emulator.profile.maxSessionSteps, players: players.count)
        for (index, player) in players.enumerated() {
            do {
                seats.append(try Seat(
                    player: player, index: index, offsetSeconds: startSeconds(player: index), weight: weights[index], emulator: seatEmulator, group: self
                ))
            } catch {
                results[index] = .failure(error)
            }
        }
        for index in seats.indices { seats[index].advanceToData() }
        // A sending player walks its quiet events (period boundaries, progress steps with no
        // check due) in a row and stops only where its share may change or at a planned pause
        // (``SharedPlan``). When the share changes (a player starts or ends a data phase) every
        // sending player is first brought to that instant at the old share, so each walks at a
        // constant share between two changes, and the players that do not change cost nothing
        // at another's event.
        while true {
            var event: (seat: Int, seconds: Double)?
            var start = Double.infinity
            for index in seats.indices {
                switch seats[index].state {
                case .waiting(let atSeconds): start = min(start, atSeconds)
                case .sending(_, let plan): if plan.seconds < event?.seconds ?? .infinity { event = (index, plan.seconds) }
                case .done: break
                }
            }
            if let event, event.seconds < start {
                seats[event.seat].reachPlan()
                if case .sending = seats[event.seat].state {
                    seats[event.seat].plan(fraction: seats[event.seat].fraction)
                    continue
                }
                share(&seats, at: event.seconds)
            } else if start.isFinite {
                share(&seats, at: start)
            } else {
                break
            }
        }
        for seat in seats {
            guard case .done = seat.state, let result = seat.outcome else { preconditionFailure("a player did not finish") }
            results[seat.index] = result
        }
        return results.map { result in
            guard players.count > 1, case .failure(.sessionStepLimit(let trace, _)) = result else { return result! }
            return .failure(.groupStepLimit(trace: trace, steps: emulator.profile.maxSessionSteps, players: players.count))
        }
    }

    /// Each player's part of a group's `steps`.
    public static func stepsPerPlayer(_ steps: Int, players: Int) -> Int {
        max(1, steps / max(1, players))
    }

    /// The share changes at link time `seconds`: every sending player is brought there at its
    /// old share, the players whose data phase starts then join, and each plans its next stop
    /// at its new share: its weight over the sending players' total.
    private func share(_ seats: inout [Seat], at seconds: Double) {
        var changed = true
        while changed {
            changed = false
            for index in seats.indices where seats[index].bring(to: seconds) { changed = true }
        }
        // Equal weights are all 1, so the total is the count of sending players and each
        // share is exactly 1 / n.
        var sendingWeight = 0.0
        for index in seats.indices {
            switch seats[index].state {
            case .waiting(let atSeconds) where atSeconds <= seconds + Self.toleranceSeconds:
                seats[index].state = .sending(sinceSeconds: seconds, plan: .unplanned(at: seconds))
                sendingWeight += seats[index].weight
            case .sending: sendingWeight += seats[index].weight
            case .waiting, .done: break
            }
        }
        for index in seats.indices { seats[index].plan(fraction: sendingWeight > 0 ? seats[index].weight / sendingWeight : 1) }
    }
}

/// One player on the link: its session, its strategy, when it joined, and where it stands.
private struct Seat {
    enum State {
        /// Its next data phase starts at this link time (seconds since the first player joined).
        case waiting(atSeconds: Double)
        /// In a data phase, taking a share of the link: walked to `sinceSeconds` (link time), to
        /// stop next as `plan` says.
        case sending(sinceSeconds: Double, plan: SharedPlan)
        /// Finished or failed: ``outcome`` says which.
        case done
    }

    /// Its session, of a model that can share a link, answered by `strategy` as the batch path
    /// answers one (``SessionEngine/play(_:context:events:)``).
    let session: SharedLinkSession
    var strategy: OpenedStrategy
    /// The player's seat, 0-based.
    let index: Int
    let offsetSeconds: Double
    /// Its weight over the group's smallest (``LinkShare/relativeWeights(players:)``): 1 under equal sharing.
    let weight: Double
    /// Small and plain, as the group reads every seat's at every event; the result lies apart.
    var state: State
    /// How the session ended, once `state` is `done`.
    private(set) var outcome: Result<SessionResult, EmulationError>?
    /// The share the player's walk is planned at.
    var fraction = 1.0

    init(
        player: LinkGroup.Player, index: Int, offsetSeconds: Double, weight: Double, emulator: SessionEmulator, group: LinkGroup
    ) throws(EmulationError) {
        strategy = OpenedStrategy(player.strategy)
        self.index = index
        self.offsetSeconds = offsetSeconds
        self.weight = weight
        state = .waiting(atSeconds: offsetSeconds)
        let setup = try SessionSetup(emulator: emulator, strategyID: player.strategyID, trace: group.trace, video: group.video, seed: player.seed)
        // The group refused a profile whose players cannot share a link when it was set up.
        guard let session = setup.sharedLinkSession() else {
            throw .settingsRefused(InputError(setting: .players, LinkGroup.refusal(for: emulator.profile) ?? "cannot share a link"))
        }
        self.session = session
        if offsetSeconds > 0 { try session.joinLink(atSeconds: offsetSeconds) }
        try session.setUp(&strategy)
    }

    /// Ends the player's part: it takes no share from now on.
    mutating func finish(_ outcome: Result<SessionResult, EmulationError>) {
        self.outcome = outcome
        state = .done
    }

    /// Plans the next stop of a sending player at `fraction` of the link.
    mutating func plan(fraction: Double) {
        guard case .sending(let sinceSeconds, _) = state else { return }
        self.fraction = fraction
        state = .sending(sinceSeconds: sinceSeconds, plan: session.planShared(fromSeconds: sinceSeconds, fraction: fraction))
    }

    /// Walks a sending player to its planned stop: the quiet events before it, then the event
    /// there (the caller replans a pause, or an event that leaves the player sending).
    mutating func reachPlan() {
        guard case .sending(var seconds, let plan) = state else { return }
        _ = session.walkSharedQuietly(plan.quietSteps, fraction: fraction, seconds: &seconds, through: .infinity)
        if plan.mayChangeShare {
            move(.toNextEvent(fraction: fraction), to: plan.seconds)
        } else {
            state = .sending(sinceSeconds: plan.seconds, plan: plan)
        }
    }

    /// Brings a sending player to link time `seconds`, where the share changes: its quiet events
    /// before then, at most one event within the tolerance taken whole, else a stretch at the
    /// old share. Returns whether it took an event that may end its data phase.
    mutating func bring(to seconds: Double) -> Bool {
        guard case .sending(var since, let plan) = state, since < seconds else { return false }
        let quiet = plan.quietSteps - session.walkSharedQuietly(plan.quietSteps, fraction: fraction, seconds: &since, through: seconds.nextDown)
        if quiet > 0 {
            if session.walkSharedQuietly(1, fraction: fraction, seconds: &since, through: seconds + LinkGroup.toleranceSeconds) == 1 {
                state = .sending(sinceSeconds: seconds, plan: plan)
                return false
            }
        } else if plan.mayChangeShare, plan.seconds <= seconds + LinkGroup.toleranceSeconds {
            // Its own event falls at the change: taken whole, it may end the data phase.
            move(.toNextEvent(fraction: fraction), to: seconds)
            return true
        }
        move(.advance(seconds: seconds - since, fraction: fraction), to: seconds)
        return false
    }

    /// Moves the transfer in its data phase to link time `seconds`, answering the abandonment
    /// check it stops at; at its end, on to the next data phase.
    mutating func move(_ move: LinkShareMove, to seconds: Double) {
        state = .sending(sinceSeconds: seconds, plan: .unplanned(at: seconds))
        do throws(EmulationError) {
            switch try session.stepShared(move) {
            case .event(let event) where event.kind == .transferEnd:
                advanceToData()
            case .check(let progress):
                try session.answer(progress, with: &strategy)
            default:
                break
            }
        } catch {
            finish(.failure(error))
        }
    }

    /// Plays the session with its strategy until its next data phase is about to start (the
    /// first byte of a request) or it ends: what a player does outside a data phase depends on
    /// no other player.
    mutating func advanceToData() {
        do throws(EmulationError) {
            while case .event(let event) = try session.play(&strategy) {
                guard event.kind == .firstByte else { continue }
                state = .waiting(atSeconds: offsetSeconds + event.seconds)
                return
            }
            finish(.success(session.result))
        } catch {
            finish(.failure(error))
        }
    }
}
