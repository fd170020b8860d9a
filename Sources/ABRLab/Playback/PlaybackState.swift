import Foundation

/// The nine states of a player.
public enum PlaybackState: Equatable, Hashable, Sendable {
    case idle
    case loading(URL)
    case ready
    case playing
    case paused
    case buffering(previousState: ResumableState)
    case seeking(to: TimeInterval, previousState: ResumableState)
    case ended
    case failed(PlaybackError)

    /// The state that buffering or seeking returns to once it completes.
    public enum ResumableState: Equatable, Hashable, Sendable {
        case playing
        case paused
    }
}
