/// What a comparison runs: every strategy over every trace with one video, profile and QoE model.
public struct ExperimentPlan: Sendable {
    public var strategies: [StrategyDescriptor]
    /// Traces in the order results are written (callers sort them so the order never depends
    /// on how they were found).
    public var traces: [NetworkTrace]
    public var video: Video
    public var emulator: SessionEmulator
    public var qoe: QoEModel
    /// Scores sessions instead of `qoe` when set (a QoE model written in Lua, say).
    public var customQoE: (any SegmentQoEModel)?
    public var seed: UInt64
    /// Players sharing each trace's link in groups; `nil` plays every session alone.
    public var grouping: LinkGrouping?

    public init(
        strategies: [StrategyDescriptor], traces: [NetworkTrace], video: Video,
        emulator: SessionEmulator, qoe: QoEModel, seed: UInt64, customQoE: (any SegmentQoEModel)? = nil,
        grouping: LinkGrouping? = nil
    ) {
        self.strategies = strategies
        self.traces = traces
        self.video = video
        self.emulator = emulator
        self.qoe = qoe
        self.customQoE = customQoE
        self.seed = seed
        self.grouping = grouping
    }

    /// The name of the QoE model that scores sessions.
    public var qoeName: String { customQoE?.name ?? qoe.name }

    public var sessionCount: Int { sessionsPerTrace * traces.count }

    /// The sessions of one trace: every strategy row's, or every player of its groups.
    public var sessionsPerTrace: Int { grouping.map { groupsPerTrace * $0.players } ?? strategies.count }

    /// Checks everything that can be checked before a session runs. `requiresTraces: false`
    /// accepts an empty trace list, as a shard of a run with fewer traces than shards has.
    public func validate(requiresTraces: Bool = true) throws(InputError) {
        guard !strategies.isEmpty else { throw InputError(setting: .strategies, "no strategies to run") }
        guard !traces.isEmpty || !requiresTraces else { throw InputError(setting: .traces, "the trace set is empty") }
        // Sets, not pairwise scans: a parameter grid can make a hundred thousand rows.
        var ids = Set<String>()
        if let duplicate = strategies.first(where: { !ids.insert($0.id).inserted }) {
            throw InputError(setting: .strategies, "strategy id '\(duplicate.id)' is given twice")
        }
        var names = Set<String>()
        if let duplicate = traces.first(where: { !names.insert($0.name).inserted }) {
            throw InputError(setting: .traces, "two traces are named '\(duplicate.name)'; trace names must be unique within a run")
        }
        if let refusal = emulator.settingsRefusal { throw refusal }
        // validate(video:) refuses settings only: every error it throws has a settingsError.
        do { try emulator.validate(video: video) } catch { throw error.settingsError ?? InputError(.settings([.segments]), error.text) }
        if let grouping { try validate(grouping) }
        // With a QoE script the built-in model only sums the script's scores: it scores nothing to check.
        if customQoE == nil { try qoe.validate(ladder: video.ladder, profile: emulator.profile) }
    }

    /// Runs session `index` of the fixed order (traces major, strategies minor) as a
    /// ``StreamingSession`` stepped by a fresh instance of its strategy.
    public func runSession(index: Int) -> SessionOutcome {
        let descriptor = strategies[index % strategies.count]
        let trace = traces[index / strategies.count]
        let seed = SessionSeed.derive(seed: self.seed, strategyID: descriptor.id, traceName: trace.name)
        let result: Result<SessionResult, any Error>
        do {
            var session = try StreamingSession(emulator: emulator, strategyID: descriptor.id, trace: trace, video: video, seed: seed)
            var strategy = OpenedStrategy(try descriptor.makeStrategy())
            result = .success(try session.run(&strategy))
        } catch {
            result = .failure(error)
        }
        return outcome(index: index, strategyID: descriptor.id, traceName: trace.name, seed: seed, result: result)
    }

    /// A session's result scored, or its error, as one outcome.
    func outcome(index: Int, strategyID: String, traceName: String, seed: UInt64, result: Result<SessionResult, any Error>) -> SessionOutcome {
        do {
            let result = try result.get()
            let (metrics, scores) = try SessionMetrics.scored(result, qoe: qoe, script: customQoE, video: video, seed: seed)
            return SessionOutcome(
                index: index, strategyID: strategyID, traceName: traceName, seed: seed, result: result,
                metrics: metrics, segmentScores: scores, error: nil
            )
        } catch {
            return SessionOutcome(
                index: index, strategyID: strategyID, traceName: traceName, seed: seed, result: nil,
                metrics: nil, segmentScores: [], error: String(describing: error)
            )
        }
    }
}
