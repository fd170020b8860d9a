extension PlaybackState {
    /// Whether playback counts as running, for analytics: playing, or buffering or seeking
    /// on the way back to playing.
    public var isActive: Bool {
        switch self {
        case .playing: true
        case .buffering(let previous): previous == .playing
        case .seeking(_, let previous): previous == .playing
        default: false
        }
    }

    /// Whether a play command makes sense now.
    public var canPlay: Bool {
        switch self {
        case .ready, .paused, .ended: true
        default: false
        }
    }

    /// Whether a pause command makes sense now.
    public var canPause: Bool {
        switch self {
        case .playing: true
        case .buffering(let previous): previous == .playing
        default: false
        }
    }
}

extension PlaybackState: CustomStringConvertible {
    /// A compact, stable spelling used in logs and `transitions.csv`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading(let url): "loading(\(url.absoluteString))"
        case .ready: "ready"
        case .playing: "playing"
        case .paused: "paused"
        case .buffering(let previous): "buffering(\(previous))"
        case .seeking(let time, let previous): "seeking(\(time),\(previous))"
        case .ended: "ended"
        case .failed(let error): "failed(\(error))"
        }
    }
}

extension PlaybackState.ResumableState: CustomStringConvertible {
    public var description: String {
        switch self {
        case .playing: "playing"
        case .paused: "paused"
        }
    }

    /// The plain state this resumes into.
    public var state: PlaybackState {
        switch self {
        case .playing: .playing
        case .paused: .paused
        }
    }
}
