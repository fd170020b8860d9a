import ABRLab
import ABRLabPlayerKit
import Foundation
import Testing
import TestSupport

/// The seed's transition table, written out row by row, checked against every state × action pair.
@Suite(.tags(.core), .selectedByTags) struct PlaybackTransitionTableTests {
    static let url = URL(string: "https://example.com/a.m3u8")!
    static let otherURL = URL(string: "https://example.com/b.m3u8")!
    static let network = PlaybackError.networkError(reason: "timeout")
    static let drm = PlaybackError.drmError(reason: "licence")

    static let states: [PlaybackState] = [
        .idle, .loading(url), .ready, .playing, .paused,
        .buffering(previousState: .playing), .buffering(previousState: .paused),
        .seeking(to: 12, previousState: .playing), .seeking(to: 12, previousState: .paused),
        .ended, .failed(network), .failed(drm),
    ]

    static let actions: [PlaybackAction] = [
        .load(otherURL), .play, .pause, .seek(to: 42), .stop, .retry,
        .didBecomeReady, .didStartPlaying, .didPause, .didStartBuffering, .didFinishBuffering,
        .didStartSeeking, .didFinishSeeking, .didReachEnd, .didFail(drm),
        .didEnterBackground, .didBecomeActive, .audioSessionInterrupted, .audioSessionResumed,
    ]

    struct Row: Sendable, CustomTestStringConvertible {
        let from: PlaybackState
        let action: PlaybackAction
        let to: PlaybackState
        var testDescription: String { "\(from) --\(action)--> \(to)" }
    }

    static let allowed: [Row] = {
        var rows: [Row] = []
        func row(_ from: PlaybackState, _ action: PlaybackAction, _ to: PlaybackState) {
            rows.append(Row(from: from, action: action, to: to))
        }
        row(.idle, .load(otherURL), .loading(otherURL))

        row(.loading(url), .didBecomeReady, .ready)
        row(.loading(url), .didFail(drm), .failed(drm))
        row(.loading(url), .stop, .idle)

        row(.ready, .play, .playing)
        row(.ready, .stop, .idle)
        row(.ready, .load(otherURL), .loading(otherURL))

        row(.playing, .pause, .paused)
        row(.playing, .didStartBuffering, .buffering(previousState: .playing))
        row(.playing, .seek(to: 42), .seeking(to: 42, previousState: .playing))
        row(.playing, .didReachEnd, .ended)
        row(.playing, .didFail(drm), .failed(drm))
        row(.playing, .stop, .idle)
        row(.playing, .didEnterBackground, .paused)
        row(.playing, .audioSessionInterrupted, .paused)

        row(.paused, .play, .playing)
        row(.paused, .didStartBuffering, .buffering(previousState: .paused))
        row(.paused, .seek(to: 42), .seeking(to: 42, previousState: .paused))
        row(.paused, .stop, .idle)
        row(.paused, .load(otherURL), .loading(otherURL))
        row(.paused, .audioSessionResumed, .playing)

        for previous in [PlaybackState.ResumableState.playing, .paused] {
            let buffering = PlaybackState.buffering(previousState: previous)
            row(buffering, .didFinishBuffering, previous == .playing ? .playing : .paused)
            row(buffering, .pause, .buffering(previousState: .paused))
            row(buffering, .play, .buffering(previousState: .playing))
            row(buffering, .didFail(drm), .failed(drm))
            row(buffering, .stop, .idle)

            let seeking = PlaybackState.seeking(to: 12, previousState: previous)
            row(seeking, .didFinishSeeking, previous == .playing ? .playing : .paused)
            row(seeking, .pause, .seeking(to: 12, previousState: .paused))
            row(seeking, .play, .seeking(to: 12, previousState: .playing))
            row(seeking, .didFail(drm), .failed(drm))
            row(seeking, .stop, .idle)
        }

        row(.ended, .play, .playing)
        row(.ended, .seek(to: 42), .seeking(to: 42, previousState: .paused))
        row(.ended, .stop, .idle)
        row(.ended, .load(otherURL), .loading(otherURL))

        for error in [network, drm] {
            row(.failed(error), .stop, .idle)
            row(.failed(error), .load(otherURL), .loading(otherURL))
        }
        row(.failed(network), .retry, .idle)
        return rows
    }()

    struct Pair: Sendable, CustomTestStringConvertible {
        let state: PlaybackState
        let action: PlaybackAction
        var testDescription: String { "\(state) + \(action)" }
    }

    static let allPairs: [Pair] = states.flatMap { state in actions.map { Pair(state: state, action: $0) } }

    @Test(arguments: allPairs)
    func everyPairFollowsTheTable(pair: Pair) {
        let expected = Self.allowed.first { $0.from == pair.state && $0.action == pair.action }?.to
        #expect(pair.state.next(on: pair.action) == expected)
    }

    @Test(arguments: allowed)
    func machineAppliesAllowedRows(row: Row) throws {
        let machine = try Self.machine(in: row.from)
        let before = machine.history.count
        let transition = try #require(machine.send(row.action))
        #expect(transition.from == row.from)
        #expect(transition.to == row.to)
        #expect(transition.action == row.action)
        #expect(transition.didChangeState == (row.from != row.to))
        #expect(machine.currentState == row.to)
        #expect(machine.history.count == before + 1)
    }

    @Test(arguments: allPairs.filter { pair in !allowed.contains { $0.from == pair.state && $0.action == pair.action } })
    func machineRejectsOtherPairs(pair: Pair) throws {
        let machine = try Self.machine(in: pair.state)
        let before = machine.history
        #expect(!machine.canPerform(pair.action))
        #expect(machine.send(pair.action) == nil)
        #expect(machine.currentState == pair.state)
        #expect(machine.history == before)
    }

    @Test func retryOnlyFromRecoverableFailure() {
        #expect(PlaybackState.failed(Self.network).next(on: .retry) == .idle)
        for error in [PlaybackError.loadFailed(reason: ""), .decodingError(reason: ""), .drmError(reason: ""), .unknown(reason: "")] {
            #expect(PlaybackState.failed(error).next(on: .retry) == nil)
        }
        for state in Self.states where !{ if case .failed = state { true } else { false } }() {
            #expect(state.next(on: .retry) == nil)
        }
    }

    /// Drives a fresh machine into `state` through allowed actions only.
    static func machine(in state: PlaybackState) throws -> DefaultPlaybackStateMachine {
        let machine = DefaultPlaybackStateMachine(timeSource: ManualTimeSource())
        let path: [PlaybackAction]
        switch state {
        case .idle: path = []
        case .loading(let url): path = [.load(url)]
        case .ready: path = [.load(url), .didBecomeReady]
        case .playing: path = [.load(url), .didBecomeReady, .play]
        case .paused: path = [.load(url), .didBecomeReady, .play, .pause]
        case .buffering(.playing): path = [.load(url), .didBecomeReady, .play, .didStartBuffering]
        case .buffering(.paused): path = [.load(url), .didBecomeReady, .play, .pause, .didStartBuffering]
        case .seeking(let time, .playing): path = [.load(url), .didBecomeReady, .play, .seek(to: time)]
        case .seeking(let time, .paused): path = [.load(url), .didBecomeReady, .play, .pause, .seek(to: time)]
        case .ended: path = [.load(url), .didBecomeReady, .play, .didReachEnd]
        case .failed(let error): path = [.load(url), .didFail(error)]
        }
        for action in path { try #require(machine.send(action) != nil) }
        try #require(machine.currentState == state)
        return machine
    }
}
