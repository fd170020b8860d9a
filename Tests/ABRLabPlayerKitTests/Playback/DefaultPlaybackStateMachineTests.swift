import ABRLab
import ABRLabPlayerKit
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct DefaultPlaybackStateMachineTests {
    let url = URL(string: "https://example.com/video.mp4")!

    @Test func timestampsComeFromTheInjectedClock() throws {
        let clock = ManualTimeSource(origin: Date(timeIntervalSince1970: 1000))
        let sut = DefaultPlaybackStateMachine(timeSource: clock)
        sut.send(.load(url))
        clock.advance(bySeconds: 2.5)
        let transition = try #require(sut.send(.didBecomeReady))
        #expect(transition.timestamp == Date(timeIntervalSince1970: 1002.5))
        #expect(sut.history.map(\.timestamp.timeIntervalSince1970) == [1000, 1002.5])
    }

    @Test func observersSeeStatesAndTransitionsInOrder() {
        let sut = DefaultPlaybackStateMachine(timeSource: ManualTimeSource())
        var states: [PlaybackState] = []
        var actions: [PlaybackAction] = []
        sut.observeStates { states.append($0) }
        let token = sut.observeTransitions { actions.append($0.action) }
        sut.send(.load(url))
        sut.send(.play)  // rejected: not observed
        sut.send(.didBecomeReady)
        sut.removeObserver(token)
        sut.send(.play)
        #expect(states == [.idle, .loading(url), .ready, .playing])
        #expect(actions == [.load(url), .didBecomeReady])
    }

    @Test func transitionsStreamDeliversAcceptedTransitions() async {
        var sut: DefaultPlaybackStateMachine? = DefaultPlaybackStateMachine(timeSource: ManualTimeSource())
        let stream = sut!.transitions()
        sut!.send(.load(url))
        sut!.send(.didBecomeReady)
        sut = nil  // releasing the machine finishes the stream
        var seen: [PlaybackState] = []
        for await transition in stream { seen.append(transition.to) }
        #expect(seen == [.loading(url), .ready])
    }

    @Test func sameStateTransitionIsRecordedButDoesNotChangeState() throws {
        let sut = DefaultPlaybackStateMachine(timeSource: ManualTimeSource())
        for action in [PlaybackAction.load(url), .didBecomeReady, .play, .pause, .didStartBuffering] { sut.send(action) }
        let transition = try #require(sut.send(.pause))
        #expect(!transition.didChangeState)
        #expect(sut.currentState == .buffering(previousState: .paused))
    }

    // The seed's own examples.
    @Test func seedExamples() {
        let sut = DefaultPlaybackStateMachine()
        let transition = sut.send(.load(url))
        #expect(sut.currentState == .loading(url))
        #expect(transition?.from == .idle)
        #expect(transition?.to == .loading(url))

        let fresh = DefaultPlaybackStateMachine()
        #expect(fresh.send(.play) == nil)
        #expect(fresh.currentState == .idle)

        let buffering = DefaultPlaybackStateMachine()
        buffering.send(.load(URL(string: "https://example.com")!))
        buffering.send(.didBecomeReady)
        buffering.send(.play)
        buffering.send(.didStartBuffering)
        #expect(buffering.currentState == .buffering(previousState: .playing))
    }
}
