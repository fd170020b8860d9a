/// A strategy that plays one session: it picks a level for every request.
///
/// The emulator makes a fresh instance for each session, so state kept in the instance never
/// leaks between sessions. Only ``chooseLevel(_:)`` is required; the other hooks have defaults.
/// The session asks again for the same segment after an abandoned request.
public protocol SessionStrategy {
    /// Whether the strategy can play `setting`'s video at all (a model's action count, a ladder
    /// it requires); asked once on a fresh instance before any session of a run, so a strategy
    /// that cannot is refused or skipped with its reason instead of failing every session.
    func fit(_ setting: RunSetting) throws -> VideoFit
    /// Called once before the first decision.
    mutating func setUp(_ session: SessionInfo) throws
    /// The 0-based level for `context.segmentIndex`.
    mutating func chooseLevel(_ context: DecisionContext) throws -> Int
    /// The level and an idle delay before the request; by default ``chooseLevel(_:)`` with no delay.
    mutating func decide(_ context: DecisionContext) throws -> RequestDecision
    /// Called during a download on profiles with abandonment; a lower 0-based level abandons
    /// it (its bytes are wasted and the segment is decided again), `nil` lets it go on.
    mutating func checkAbandonment(_ progress: DownloadProgress) throws -> Int?
    /// The abandonment check the emulator calls: ``checkAbandonment(_:)``'s level by default.
    /// Implement it instead to also say when the next check can matter (``AbandonmentRecheck``).
    mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer
    /// Where the abandonment check is written, `file:line`, for errors about what it did; `nil`
    /// (the default) names the strategy by its id.
    func abandonmentCheckLocation() -> String?
    /// Called after the player waited because its buffer was full.
    mutating func didWait(seconds: Double, context: DecisionContext) throws
    /// Called after every request, with the context as it stands after it (its `segmentIndex`
    /// is the next segment to decide).
    mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws
    /// Whether the strategy hears ``playbackDidUpdate(_:)``; asked once, after ``setUp(_:)``.
    var updatesPlayback: Bool { get }
    /// Live only, when ``updatesPlayback``: called at every chunk arrival and every chunk
    /// duration of session time while a chunk is on its way, as dash.js re-evaluates the rate
    /// at its playback updates. A rate (0.5…2) holds until the next update or decision; `nil`
    /// keeps the rate in force, and so does a decision without a rate.
    mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double?
    /// Live only, asked after each ``playbackDidUpdate(_:)``: whether the strategy's catch-up seeks to the live edge
    /// (dash.js's `seekToCurrentLive` past `maxDrift`) and so clears its request. The player seeks when the segment
    /// under way has arrived, as it does for its own catch-up; default never.
    mutating func takeSeekToLive() -> Bool
}

extension SessionStrategy {
    public func fit(_ setting: RunSetting) throws -> VideoFit { .fits }
    public mutating func setUp(_ session: SessionInfo) throws {}
    public mutating func decide(_ context: DecisionContext) throws -> RequestDecision {
        RequestDecision(level: try chooseLevel(context))
    }
    public mutating func checkAbandonment(_ progress: DownloadProgress) throws -> Int? { nil }
    public mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer {
        AbandonmentAnswer(level: try checkAbandonment(progress))
    }
    public func abandonmentCheckLocation() -> String? { nil }
    public mutating func didWait(seconds: Double, context: DecisionContext) throws {}
    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {}
    public var updatesPlayback: Bool { false }
    public mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double? { nil }
    public mutating func takeSeekToLive() -> Bool { false }
}

/// Names a strategy and makes a fresh instance of it per session.
public struct StrategyDescriptor: Sendable {
    /// Id used on the command line and in results (`conservative`, `bba`, …).
    public let id: String
    public let name: String
    public let description: String
    /// Where it comes from: `native` or a script path.
    public let source: String
    /// Declared parameters with their effective values, sorted by key; empty when it takes none.
    public let params: [StrategyParam]
    private let factory: @Sendable () throws -> any SessionStrategy
    /// Makes the descriptor with some parameters set from text (StrategyDescriptor+Params.swift).
    let configurator: StrategyConfigurator?
    /// The files a script strategy reads besides its source (modules, models), with the hashes
    /// of the bytes it uses; `nil` for native strategies. The plan's fingerprint covers the
    /// planned ones, `run.json` records them all.
    public var resources: (any ScriptResources)?

    public init(
        id: String, name: String, description: String, source: String = "native",
        params: [StrategyParam] = [], configure: StrategyConfigurator? = nil,
        make factory: @escaping @Sendable () throws -> any SessionStrategy
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.source = source
        self.params = params
        self.configurator = configure
        self.factory = factory
    }

    /// A new instance for one session.
    public func makeStrategy() throws -> any SessionStrategy { try factory() }

    /// Whether this strategy can play `setting`'s video at all, asked of a fresh instance.
    public func fit(_ setting: RunSetting) throws -> VideoFit { try makeStrategy().fit(setting) }
}
