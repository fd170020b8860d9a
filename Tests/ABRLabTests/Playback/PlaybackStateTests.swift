import ABRLab
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct PlaybackStateTests {
    static let url = URL(string: "https://example.com")!

    @Test(arguments: [
        // (state, isActive, canPlay, canPause)
        (PlaybackState.idle, false, false, false),
        (.loading(url), false, false, false),
        (.ready, false, true, false),
        (.playing, true, false, true),
        (.paused, false, true, false),
        (.buffering(previousState: .playing), true, false, true),
        (.buffering(previousState: .paused), false, false, false),
        (.seeking(to: 3, previousState: .playing), true, false, false),
        (.seeking(to: 3, previousState: .paused), false, false, false),
        (.ended, false, true, false),
        (.failed(.unknown(reason: "x")), false, false, false),
    ])
    func properties(state: PlaybackState, isActive: Bool, canPlay: Bool, canPause: Bool) {
        #expect(state.isActive == isActive)
        #expect(state.canPlay == canPlay)
        #expect(state.canPause == canPause)
    }

    @Test(arguments: [
        (PlaybackError.loadFailed(reason: "a"), false), (.networkError(reason: "b"), true),
        (.decodingError(reason: "c"), false), (.drmError(reason: "d"), false), (.unknown(reason: "e"), false),
    ])
    func recoverability(error: PlaybackError, recoverable: Bool) {
        #expect(error.isRecoverable == recoverable)
    }

    @Test func descriptionsAreStable() {
        #expect(PlaybackState.buffering(previousState: .playing).description == "buffering(playing)")
        #expect(PlaybackState.loading(Self.url).description == "loading(https://example.com)")
        #expect(PlaybackAction.didStartBuffering.description == "didStartBuffering")
    }
}
