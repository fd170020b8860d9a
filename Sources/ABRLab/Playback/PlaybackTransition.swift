import Foundation

/// One accepted action: where the machine was, where it went, and when.
public struct PlaybackTransition: Equatable, Hashable, Sendable {
    public let from: PlaybackState
    public let to: PlaybackState
    public let action: PlaybackAction
    public let timestamp: Date

    public init(from: PlaybackState, to: PlaybackState, action: PlaybackAction, timestamp: Date) {
        self.from = from
        self.to = to
        self.action = action
        self.timestamp = timestamp
    }

    /// False for accepted actions that leave the state as it was (e.g. pausing while
    /// already buffering towards paused).
    public var didChangeState: Bool { from != to }
}
