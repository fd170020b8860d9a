/// Which dash.js's default live catch-up sets the playback rate (`--catchup`).
public enum CatchupRule: Equatable, Sendable {
    /// dash.js 5.x `src/streaming/controllers/CatchupController.js`: no dead band; after an empty
    /// buffer, real time until half the target latency is buffered; seeks past `maxDrift`.
    case dashjs5
    /// dash.js 3.0.1 `src/streaming/controllers/PlaybackController.js`, as the Twitch challenge
    /// ran it: real time exactly while the drift is within `minDriftSeconds`
    /// (`liveCatchUpMinDrift`); an empty buffer resets the rate to 1 and holds it there, while
    /// the latency is over the target, until more than half the target latency is buffered.
    case dashjs3(minDriftSeconds: Double)

    /// dash.js 3.0.1's default `liveCatchUpMinDrift` (`src/core/Settings.js`).
    public static let dashjs3DefaultMinDriftSeconds = 0.02

    /// dash.js's default drift past which the player seeks to the live edge: `liveCatchup.maxDrift`
    /// 12 s in 5.x, `liveCatchUpMaxDrift` 0 (never) in 3.0.1 (`src/core/Settings.js`).
    public var defaultMaxDriftSeconds: Double {
        switch self {
        case .dashjs5: 12
        case .dashjs3: 0
        }
    }

    /// The name `--catchup` takes.
    public var name: String {
        switch self {
        case .dashjs5: "dashjs5"
        case .dashjs3: "dashjs3"
        }
    }
}
