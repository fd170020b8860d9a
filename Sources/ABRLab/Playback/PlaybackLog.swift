import Foundation

/// The player state machine of an emulated session as a value: the seed's transition table
/// (``PlaybackState/next(on:)``), the state it is in, and the transitions it accepted, stamped in
/// session time. ``DefaultPlaybackStateMachine`` is the same table for a live player with
/// observers; a session's copy of this one is a snapshot, independent of the original.
struct PlaybackLog: Sendable {
    private(set) var state: PlaybackState = .idle
    /// Every accepted transition, oldest first; empty when the log keeps none.
    private(set) var history: [PlaybackTransition] = []
    /// Whether accepted transitions are kept (the state is followed either way).
    let keepsHistory: Bool

    init(keepsHistory: Bool) {
        self.keepsHistory = keepsHistory
    }

    /// Applies `action` at `milliseconds` into the session if the table allows it; an action it
    /// does not allow leaves the state and the history alone.
    mutating func send(_ action: PlaybackAction, atMs milliseconds: Double) {
        guard let next = state.next(on: action) else { return }
        if keepsHistory {
            history.append(PlaybackTransition(
                from: state, to: next, action: action, timestamp: Date(timeIntervalSinceReferenceDate: milliseconds / 1000)
            ))
        }
        state = next
    }
}
