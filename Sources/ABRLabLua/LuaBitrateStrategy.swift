import ABRLab
import Synchronization

/// A seed-form Lua script seen as a native ``BitrateStrategy`` (bitrates in bits per second),
/// so `BitrateStrategySession` can play it like `ConservativeBitrateStrategy`.
///
/// `BitrateStrategy` is `Sendable` and its methods cannot throw. The Lua session sits behind a
/// mutex, which makes the conformance honest (one caller at a time), and a failure is kept and
/// answered with a neutral value (lowest bitrate, no switch) until ``LuaQuestionStrategy`` rethrows
/// it after the call.
public final class LuaBitrateStrategy: BitrateStrategy {
    public let script: LuaScript
    private let state = Mutex<State>(State())

    private struct State {
        var session: LuaSession?
        var failure: InputError?
    }

    public init(script: LuaScript) {
        self.script = script
    }

    /// Starts the script afresh for a session and calls its `setup(session)`.
    public func setUp(_ info: SessionInfo) throws(InputError) {
        let script = self.script
        try state.withLock { (state: inout State) throws(InputError) in
            state.session = nil
            state.failure = nil
            state.session = try LuaSession(script: script, info: info)
        }
    }

    /// Calls `on_download(report)` when the script has one.
    public func didDownload(_ record: DownloadRecord) throws(InputError) {
        try state.withLock { (state: inout State) throws(InputError) in
            try state.session?.didDownload(record, chunks: nil)
        }
    }

    /// The first failure since ``setUp(_:)``, if any; it ends the session.
    public func throwIfFailed() throws(InputError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    public func initialBitrate(for networkQuality: NetworkQuality, availableLevels: [BitrateLevel]) -> Int {
        ask(.initial, currentBitrate: 0, value: 0, quality: networkQuality) ?? availableLevels.map(\.bitrate).min() ?? 0
    }

    public func shouldUpgrade(
        currentBitrate: Int, bufferHealth: Double, networkQuality: NetworkQuality, availableLevels: [BitrateLevel]
    ) -> Int? {
        ask(.upgrade, currentBitrate: currentBitrate, value: bufferHealth, quality: networkQuality)
    }

    public func shouldDowngrade(
        currentBitrate: Int, rebufferingRatio: Double, networkQuality: NetworkQuality, availableLevels: [BitrateLevel]
    ) -> Int? {
        ask(.downgrade, currentBitrate: currentBitrate, value: rebufferingRatio, quality: networkQuality)
    }

    /// The script's answer, or `nil` once anything failed (the failure is kept).
    private func ask(_ question: LuaBitrateQuestion, currentBitrate: Int, value: Double, quality: NetworkQuality) -> Int? {
        let path = script.path
        return state.withLock { (state: inout State) -> Int? in
            guard state.failure == nil else { return nil }
            guard let session = state.session else {
                state.failure = InputError(file: path, "the session was not set up before its first decision")
                return nil
            }
            do throws(InputError) {
                return try session.ask(question, currentBitrate: currentBitrate, value: value, quality: quality)
            } catch {
                state.failure = error
                return nil
            }
        }
    }
}
