/// A strategy of any type behind one concrete type, so the engine that plays it is compiled for
/// its player model.
///
/// Handing an `any SessionStrategy` to a generic engine opens it at run time, and the engine then
/// runs unspecialised: every step of the player model goes through its witness table, and large
/// values are copied through memory. Wrapped, the engine is specialised once for this type; each
/// call to the strategy dispatches through the existential as before, and every hook, defaults
/// included, is the wrapped strategy's own.
struct OpenedStrategy: SessionStrategy {
    var base: any SessionStrategy

    init(_ base: any SessionStrategy) {
        self.base = base
    }

    func fit(_ setting: RunSetting) throws -> VideoFit { try base.fit(setting) }
    mutating func setUp(_ session: SessionInfo) throws { try base.setUp(session) }
    mutating func chooseLevel(_ context: DecisionContext) throws -> Int { try base.chooseLevel(context) }
    mutating func decide(_ context: DecisionContext) throws -> RequestDecision { try base.decide(context) }
    mutating func checkAbandonment(_ progress: DownloadProgress) throws -> Int? { try base.checkAbandonment(progress) }
    mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer { try base.answerAbandonment(progress) }
    func abandonmentCheckLocation() -> String? { base.abandonmentCheckLocation() }
    mutating func didWait(seconds: Double, context: DecisionContext) throws { try base.didWait(seconds: seconds, context: context) }
    mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws { try base.didDownload(record, context: context) }
    var updatesPlayback: Bool { base.updatesPlayback }
    mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double? { try base.playbackDidUpdate(update) }
    mutating func takeSeekToLive() -> Bool { base.takeSeekToLive() }
}
