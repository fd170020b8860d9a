/// Whether a strategy can play a run's video at all, asked once before any session runs.
public enum VideoFit: Equatable, Sendable {
    case fits
    /// It cannot; `reason` says why in one line ("the model has 6 actions; the video has 10 levels").
    case unfit(reason: String)
}
