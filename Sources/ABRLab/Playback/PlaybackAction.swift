import Foundation

/// Everything that can be asked of, or happen to, a player.
public enum PlaybackAction: Equatable, Hashable, Sendable {
    // User-initiated
    case load(URL)
    case play
    case pause
    case seek(to: TimeInterval)
    case stop
    case retry

    // System events
    case didBecomeReady
    case didStartPlaying
    case didPause
    case didStartBuffering
    case didFinishBuffering
    case didStartSeeking
    case didFinishSeeking
    case didReachEnd
    case didFail(PlaybackError)

    // External events
    case didEnterBackground
    case didBecomeActive
    case audioSessionInterrupted
    case audioSessionResumed
}

extension PlaybackAction: CustomStringConvertible {
    public var description: String {
        switch self {
        case .load(let url): "load(\(url.absoluteString))"
        case .play: "play"
        case .pause: "pause"
        case .seek(let time): "seek(\(time))"
        case .stop: "stop"
        case .retry: "retry"
        case .didBecomeReady: "didBecomeReady"
        case .didStartPlaying: "didStartPlaying"
        case .didPause: "didPause"
        case .didStartBuffering: "didStartBuffering"
        case .didFinishBuffering: "didFinishBuffering"
        case .didStartSeeking: "didStartSeeking"
        case .didFinishSeeking: "didFinishSeeking"
        case .didReachEnd: "didReachEnd"
        case .didFail(let error): "didFail(\(error))"
        case .didEnterBackground: "didEnterBackground"
        case .didBecomeActive: "didBecomeActive"
        case .audioSessionInterrupted: "audioSessionInterrupted"
        case .audioSessionResumed: "audioSessionResumed"
        }
    }
}
