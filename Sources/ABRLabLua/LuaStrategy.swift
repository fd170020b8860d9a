import ABRLab

/// A session-form Lua script playing one session: `setup(session)`, then per request
/// `choose(ctx)`, `check_abandon(progress)` during the download, `on_download(report)`, and
/// `on_wait(wait)` after full-buffer waits, and on live `on_playback(playback)` at playback updates.
///
/// Not `Sendable`: it runs on the thread that calls ``setUp(_:)``, in that thread's engine.
public struct LuaStrategy: SessionStrategy {
    public let script: LuaScript
    private var session: LuaSession?

    public init(script: LuaScript) {
        self.script = script
    }

    /// The script's `check(video)`, when it has one.
    public func fit(_ setting: RunSetting) throws -> VideoFit {
        try script.fit(setting)
    }

    /// Starts the script afresh: new environment, new upvalues, random generator seeded with
    /// `info.seed`.
    public mutating func setUp(_ info: SessionInfo) throws {
        session = nil
        session = try LuaSession(script: script, info: info)
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
        try openSession().choose(context).level
    }

    public mutating func decide(_ context: DecisionContext) throws -> RequestDecision {
        try openSession().choose(context)
    }

    public mutating func checkAbandonment(_ progress: DownloadProgress) throws -> Int? {
        try openSession().answerAbandonment(progress).level
    }

    public mutating func answerAbandonment(_ progress: DownloadProgress) throws -> AbandonmentAnswer {
        try openSession().answerAbandonment(progress)
    }

    public func abandonmentCheckLocation() -> String? {
        session?.checkAbandonLocation()
    }

    public mutating func didWait(seconds: Double, context: DecisionContext) throws {
        try openSession().didWait(seconds: seconds, bufferSeconds: context.bufferSeconds)
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {
        try openSession().didDownload(record, context: context)
    }

    /// Whether the script defines `on_playback`.
    public var updatesPlayback: Bool { session?.updatesPlayback ?? false }

    public mutating func playbackDidUpdate(_ update: PlaybackUpdate) throws -> Double? {
        try openSession().playbackDidUpdate(update)
    }

    private func openSession() throws(InputError) -> LuaSession {
        guard let session else { throw InputError(file: script.path, "the session was not set up before its first decision") }
        return session
    }
}
