extension PlaybackState {
    /// The transition table: the state `action` leads to from this state, or `nil` when the
    /// table does not allow it.
    public func next(on action: PlaybackAction) -> PlaybackState? {
        switch (self, action) {
        // Any state but idle can be stopped.
        case (.idle, .stop): return nil
        case (_, .stop): return .idle

        case (.idle, .load(let url)),
             (.ready, .load(let url)),
             (.paused, .load(let url)),
             (.ended, .load(let url)),
             (.failed, .load(let url)):
            return .loading(url)

        case (.loading, .didBecomeReady): return .ready
        case (.loading, .didFail(let error)),
             (.playing, .didFail(let error)),
             (.buffering, .didFail(let error)),
             (.seeking, .didFail(let error)):
            return .failed(error)

        case (.ready, .play), (.paused, .play), (.ended, .play), (.paused, .audioSessionResumed):
            return .playing

        case (.playing, .pause), (.playing, .didEnterBackground), (.playing, .audioSessionInterrupted):
            return .paused
        case (.playing, .didStartBuffering): return .buffering(previousState: .playing)
        case (.playing, .seek(let time)): return .seeking(to: time, previousState: .playing)
        case (.playing, .didReachEnd): return .ended

        case (.paused, .didStartBuffering): return .buffering(previousState: .paused)
        case (.paused, .seek(let time)), (.ended, .seek(let time)):
            return .seeking(to: time, previousState: .paused)

        case (.buffering(let previous), .didFinishBuffering): return previous.state
        case (.buffering, .pause): return .buffering(previousState: .paused)
        case (.buffering, .play): return .buffering(previousState: .playing)

        case (.seeking(_, let previous), .didFinishSeeking): return previous.state
        case (.seeking(let time, _), .pause): return .seeking(to: time, previousState: .paused)
        case (.seeking(let time, _), .play): return .seeking(to: time, previousState: .playing)

        case (.failed(let error), .retry): return error.isRecoverable ? .idle : nil

        default: return nil
        }
    }
}
