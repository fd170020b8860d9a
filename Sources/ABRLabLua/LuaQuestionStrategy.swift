import ABRLab

/// A seed-form Lua script playing one session through `BitrateStrategySession`, exactly as the
/// native Conservative strategy does, plus the script's optional `setup` and `on_download`.
/// Errors the Lua side keeps during a decision are thrown right after it.
public struct LuaQuestionStrategy: SessionStrategy {
    public let script: LuaScript
    private let bitrateStrategy: LuaBitrateStrategy
    private var controller: BitrateStrategySession<LuaBitrateStrategy>

    public init(script: LuaScript) {
        self.script = script
        self.bitrateStrategy = LuaBitrateStrategy(script: script)
        self.controller = BitrateStrategySession(strategy: bitrateStrategy)
    }

    /// The script's `check(video)`, when it has one.
    public func fit(_ setting: RunSetting) throws -> VideoFit {
        try script.fit(setting)
    }

    public mutating func setUp(_ info: SessionInfo) throws {
        try bitrateStrategy.setUp(info)
        try controller.setUp(info)
        try bitrateStrategy.throwIfFailed()
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
        let level = try controller.chooseLevel(context)
        try bitrateStrategy.throwIfFailed()
        return level
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {
        try controller.didDownload(record, context: context)
        try bitrateStrategy.throwIfFailed()
        try bitrateStrategy.didDownload(record)
    }
}
