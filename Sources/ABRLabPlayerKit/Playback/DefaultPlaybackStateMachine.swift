import ABRLab
import Foundation

/// The seed's player state machine, free of any actor so that each emulated session can own
/// one on whatever thread runs it. It keeps the full transition history and notifies observers.
public final class DefaultPlaybackStateMachine {
    public typealias StateObserver = (PlaybackState) -> Void
    public typealias TransitionObserver = (PlaybackTransition) -> Void

    public private(set) var currentState: PlaybackState = .idle
    /// Every accepted transition, oldest first.
    public private(set) var history: [PlaybackTransition] = []

    private let timeSource: any TimeSource
    // Arrays, not dictionaries, so observers run in registration order.
    private var stateObservers: [(token: ObservationToken, observer: StateObserver)] = []
    private var transitionObservers: [(token: ObservationToken, observer: TransitionObserver)] = []
    private var nextToken = 0

    public init(timeSource: any TimeSource = SystemTimeSource()) {
        self.timeSource = timeSource
    }

    /// Applies `action` if the transition table allows it and returns the transition;
    /// returns `nil` and leaves the state alone otherwise.
    @discardableResult
    public func send(_ action: PlaybackAction) -> PlaybackTransition? {
        guard let nextState = currentState.next(on: action) else { return nil }
        let transition = PlaybackTransition(
            from: currentState, to: nextState, action: action, timestamp: timeSource.now()
        )
        currentState = nextState
        history.append(transition)
        for entry in stateObservers { entry.observer(nextState) }
        for entry in transitionObservers { entry.observer(transition) }
        return transition
    }

    /// Whether `action` would be accepted now, without applying it.
    public func canPerform(_ action: PlaybackAction) -> Bool {
        currentState.next(on: action) != nil
    }

    /// Calls `observer` with the current state at once and with every later state.
    @discardableResult
    public func observeStates(_ observer: @escaping StateObserver) -> ObservationToken {
        let token = makeToken()
        stateObservers.append((token, observer))
        observer(currentState)
        return token
    }

    /// Calls `observer` with every later transition.
    @discardableResult
    public func observeTransitions(_ observer: @escaping TransitionObserver) -> ObservationToken {
        let token = makeToken()
        transitionObservers.append((token, observer))
        return token
    }

    public func removeObserver(_ token: ObservationToken) {
        stateObservers.removeAll { $0.token == token }
        transitionObservers.removeAll { $0.token == token }
    }

    /// Later transitions as an async sequence; it finishes when the machine is released.
    public func transitions() -> AsyncStream<PlaybackTransition> {
        let (stream, continuation) = AsyncStream<PlaybackTransition>.makeStream()
        observeTransitions { continuation.yield($0) }
        finishers.append { continuation.finish() }
        return stream
    }

    /// The current state and every later state as an async sequence.
    public func states() -> AsyncStream<PlaybackState> {
        let (stream, continuation) = AsyncStream<PlaybackState>.makeStream()
        observeStates { continuation.yield($0) }
        finishers.append { continuation.finish() }
        return stream
    }

    private var finishers: [() -> Void] = []

    deinit {
        for finish in finishers { finish() }
    }

    private func makeToken() -> ObservationToken {
        nextToken += 1
        return ObservationToken(id: nextToken)
    }
}

/// Identifies a registered observer so it can be removed.
public struct ObservationToken: Hashable, Sendable {
    let id: Int
}
