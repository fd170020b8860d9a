/// Why playback failed. Only network errors are worth a retry.
public enum PlaybackError: Error, Equatable, Hashable, Sendable {
    case loadFailed(reason: String)
    case networkError(reason: String)
    case decodingError(reason: String)
    case drmError(reason: String)
    case unknown(reason: String)

    public var isRecoverable: Bool {
        if case .networkError = self { return true }
        return false
    }

    public var reason: String {
        switch self {
        case .loadFailed(let reason), .networkError(let reason), .decodingError(let reason),
             .drmError(let reason), .unknown(let reason):
            reason
        }
    }
}
