import ABRLab
import Testing
import TestSupport

/// A session driven from outside plays exactly as the batch path does, whether stepped point by
/// point or event by event, alone or interleaved with another; what it is given out of turn or
/// out of range is an error naming it, never a crash.
@Suite(.tags(.core), .selectedByTags) struct StreamingSessionTests {
    /// A buffer-based rule that asks for a delay now and then and abandons slow downloads: every
    /// hook the engine has, with what it heard recorded.
    struct Probe: SessionStrategy {
        var heard: [String] = []
        func chooseLevel(_ context: DecisionContext) -> Int {
            min(context.levelCount - 1, Int(context.bufferSeconds / 12))
        }
        mutating func decide(_ context: DecisionContext) -> RequestDecision {
            heard.append("decide \(context.segmentIndex) \(context.bufferSeconds)")
            return RequestDecision(level: chooseLevel(context), delaySeconds: context.segmentIndex % 7 == 3 ? 0.25 : 0)
        }
        mutating func answerAbandonment(_ progress: DownloadProgress) -> AbandonmentAnswer {
            heard.append("check \(progress.segmentIndex) \(progress.elapsedSeconds)")
            return progress.level > 0 && progress.projectedSeconds > 3 ? .abandon(to: 0) : AbandonmentAnswer(recheck: AbandonmentRecheck(elapsedSeconds: progress.elapsedSeconds + 0.2))
        }
        mutating func didWait(seconds: Double, context: DecisionContext) { heard.append("wait \(seconds) \(context.bufferSeconds)") }
        mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
            heard.append("download \(record.segmentIndex) \(record.abandoned) \(context.segmentIndex)")
        }
    }

    static let profiles: [EmulationProfile] = {
        var replacing = EmulationProfile.sabre
        replacing.name = "sabre-replace"
        replacing.mechanics = .segmentBuffer(SegmentBufferSettings(replacement: .left))
        var live = EmulationProfile.live
        live.mechanics = .live(LiveSettings(durationSeconds: 40))
        return [.pensieve, .default, .sabre, replacing, live]
    }()

    /// Periods of 0.7 s to 3 s between 0.4 and 6 Mbit/s with latencies: transfers cross periods,
    /// stall, wait on a full buffer and get abandoned.
    static func trace(name: String = "varied", shift: Int = 0) throws -> NetworkTrace {
        let mbps = [6.0, 0.4, 3.0, 1.2, 5.0, 0.8, 2.5]
        let seconds = [3.0, 1.5, 0.7, 2.0, 2.5, 1.0, 1.8]
        var end = 0.0
        let ends = seconds.map { end += $0; return end }
        let rotated = (0..<mbps.count).map { mbps[($0 + shift) % mbps.count] * 1_000_000 }
        return try NetworkTrace(
            name: name, periodEndSeconds: ends, bandwidthBitsPerSecond: rotated, latencySeconds: ends.map { 0.02 + $0 / 1000 }
        )
    }

    static func video() throws -> Video {
        let ladder = [300_000, 1_200_000, 3_000_000, 5_000_000].enumerated().map { BitrateLevel(bitrate: $1, label: "L\($0)") }
        return try Video(name: "cbr", segmentDurationSeconds: 2, ladder: ladder, segmentCount: 60)
    }

    /// Steps `session` to its end, `strategy` answering as the batch path asks it: event by event
    /// with the context lent to it, else with a copy of it.
    static func drive(_ session: inout StreamingSession, _ strategy: inout Probe, events: Bool) throws -> (SessionResult, [NetworkEvent]) {
        try strategy.setUp(session.info)
        var seen: [NetworkEvent] = []
        while true {
            switch try events ? session.nextEvent() : session.next() {
            case .decide where events: try session.decide { strategy.decide($0) }
            case .decide:
                #expect(session.bufferSeconds == session.context.bufferSeconds)
                try session.decide(strategy.decide(session.context))
            case .checkAbandonment(let progress): try session.answer(strategy.answerAbandonment(progress))
            case .waited(let seconds): strategy.didWait(seconds: seconds, context: session.context)
            case .downloaded(let record): strategy.didDownload(record, context: session.context)
            case .network(let event): seen.append(event)
            case .finished(let result): return (result, seen)
            }
        }
    }

    static func expectSame(_ stepped: SessionResult, _ batch: SessionResult) {
        #expect(stepped.segments == batch.segments)
        #expect(stepped.transitions == batch.transitions)
        #expect(stepped.playback == batch.playback)
        #expect(stepped.endSeconds == batch.endSeconds)
        #expect(stepped.startupSeconds == batch.startupSeconds)
        #expect(stepped.liveChunks == batch.liveChunks)
    }

    @Test(arguments: profiles.map(\.name))
    func steppingPlaysAsTheBatchPath(profileName: String) throws {
        let profile = try #require(Self.profiles.first { $0.name == profileName })
        let (trace, video) = (try Self.trace(), try Self.video())
        var batchStrategy = Probe()
        let batch = try SessionEmulator(profile: profile).run(&batchStrategy, strategyID: "probe", trace: trace, video: video, seed: 3)
        for events in [false, true] {
            var session = try StreamingSession(profile: profile, trace: trace, video: video, seed: 3, strategyID: "probe")
            var strategy = Probe()
            let (result, seen) = try Self.drive(&session, &strategy, events: events)
            Self.expectSame(result, batch)
            #expect(strategy.heard == batchStrategy.heard)
            #expect(seen.isEmpty != events)
            // Events come in session time, each request's from its start to its end.
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.seconds <= $1.seconds + 1e-9 })
            if events {
                #expect(seen.filter { $0.kind == .requestStart }.count == strategy.heard.filter { $0.hasPrefix("download") }.count)
                #expect(seen.contains { $0.kind == .periodBoundary })
            }
        }
        #expect(batchStrategy.heard.contains { $0.hasPrefix("download") })
        if profile.segmentBufferSettings != nil {
            #expect(batchStrategy.heard.contains { $0.hasPrefix("check") })
            #expect(batchStrategy.heard.contains { $0.hasPrefix("wait") })
            #expect(batchStrategy.heard.contains { $0.hasPrefix("download") && $0.contains(" true ") })
        }
    }

    /// Two sessions on two links of their own, stepped event by event by a scheduler that always
    /// advances the one whose clock is behind, give exactly the records of each run alone: for
    /// each mechanic, and for two mechanics side by side.
    @Test(arguments: zip(
        ["pensieve", "default", "sabre", "sabre-replace", "live", "sabre", "live"],
        ["pensieve", "default", "sabre", "sabre-replace", "live", "default", "pensieve"]
    ))
    func twoSessionsSteppedAlternatelyMatchEachAlone(first: String, second: String) throws {
        let video = try Self.video()
        let profiles = try [first, second].map { name in try #require(Self.profiles.first { $0.name == name }) }
        let inputs = [(profiles[0], try Self.trace(name: "a")), (profiles[1], try Self.trace(name: "b", shift: 3))]
        var sessions = try inputs.map { try StreamingSession(profile: $0.0, trace: $0.1, video: video, seed: 5, strategyID: "probe") }
        var strategies = [Probe(), Probe()]
        for index in sessions.indices { try strategies[index].setUp(sessions[index].info) }
        var clocks = [0.0, 0.0]
        var results: [SessionResult?] = [nil, nil]
        var switches = 0
        var last = -1
        while let index = sessions.indices.filter({ results[$0] == nil }).min(by: { clocks[$0] < clocks[$1] }) {
            if index != last { switches += 1 }
            last = index
            switch try sessions[index].nextEvent() {
            case .decide: try sessions[index].decide(strategies[index].decide(sessions[index].context))
            case .checkAbandonment(let progress): try sessions[index].answer(strategies[index].answerAbandonment(progress))
            case .waited(let seconds): strategies[index].didWait(seconds: seconds, context: sessions[index].context)
            case .downloaded(let record): strategies[index].didDownload(record, context: sessions[index].context)
            case .network(let event):
                // Each session's events come in its own time order, so the scheduler's order is one of time.
                #expect(event.seconds >= clocks[index] - 1e-9)
                clocks[index] = event.seconds
            case .finished(let result): results[index] = result
            }
        }
        #expect(switches > 20)
        for (index, input) in inputs.enumerated() {
            var alone = Probe()
            let expected = try SessionEmulator(profile: input.0).run(&alone, strategyID: "probe", trace: input.1, video: video, seed: 5)
            Self.expectSame(try #require(results[index]), expected)
            #expect(strategies[index].heard == alone.heard)
        }
    }

    /// A copy is a snapshot: it goes on as the original would, and what it does leaves the
    /// original alone.
    @Test func aCopyIsAnIndependentSnapshot() throws {
        var session = try StreamingSession(profile: .sabre, trace: try Self.trace(), video: try Self.video(), strategyID: "probe")
        var strategy = Probe()
        for _ in 0..<40 {
            switch try session.next() {
            case .decide: try session.decide(strategy.decide(session.context))
            case .checkAbandonment(let progress): try session.answer(strategy.answerAbandonment(progress))
            default: break
            }
        }
        let before = session.segments
        var copy = session
        var copyStrategy = strategy
        let (fromCopy, _) = try Self.drive(&copy, &copyStrategy, events: false)
        #expect(session.segments == before)
        let (fromOriginal, _) = try Self.drive(&session, &strategy, events: false)
        Self.expectSame(fromCopy, fromOriginal)
    }

    /// Inputs out of turn or out of range name the session and change nothing; an error of the
    /// emulation ends it, and every later call says so again.
    @Test func badInputIsAClearErrorNamingTheSession() throws {
        var session = try StreamingSession(profile: .sabre, trace: try Self.trace(name: "bumpy"), video: try Self.video(), strategyID: "agent")
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        #expect(message { try session.decide(RequestDecision(level: 0)) }
            == "agent on bumpy: was given a decision while it waits for nothing until it is advanced to its next step")
        guard case .decide = try session.next() else { Issue.record("the first step is a decision"); return }
        #expect(message { try session.answer(.goOn) }
            == "agent on bumpy: was given an abandonment answer while it waits for a decision for segment 1")
        #expect(message { try session.decide(RequestDecision(level: 4)) } == "agent on bumpy: chose level 4 for segment 1; levels are 0…3")
        #expect(message { try session.decide(RequestDecision(level: -1)) } == "agent on bumpy: chose level -1 for segment 1; levels are 0…3")
        #expect(message { try session.decide(RequestDecision(level: 0, delaySeconds: .nan)) }.hasPrefix("agent on bumpy: asked for a delay of NaN s before segment 1"))
        #expect(message { try session.decide(RequestDecision(level: 0, delaySeconds: -1)) }.contains("delays are finite and ≥ 0"))
        #expect(message { try session.decide(RequestDecision(level: 0, playbackRate: 1.5)) }.contains("rates need the live profile"))
        // Nothing changed: the session still waits for its first decision and plays as a fresh one.
        var strategy = Probe()
        let (result, _) = try Self.drive(&session, &strategy, events: false)
        var fresh = Probe()
        Self.expectSame(result, try SessionEmulator(profile: .sabre).run(&fresh, strategyID: "agent", trace: try Self.trace(name: "bumpy"), video: try Self.video()))
        #expect(message { try session.decide(RequestDecision(level: 0)) } == "agent on bumpy: was given a decision while it waits for nothing: it has ended")
        guard case .finished = try session.next() else { Issue.record("a finished session stays finished"); return }

        var limited = EmulationProfile.default
        limited.maxSessionSeconds = 5
        var short = try StreamingSession(profile: limited, trace: try Self.trace(name: "slow"), video: try Self.video(), strategyID: "agent")
        var failure: EmulationError?
        do {
            while true {
                if case .decide = try short.next() { try short.decide(RequestDecision(level: 3)) }
            }
        } catch {
            failure = error
        }
        let expected = EmulationError.sessionTimeLimit(trace: "slow", limitSeconds: 5)
        #expect(failure == expected)
        #expect(throws: expected) { try short.next() }
        #expect(throws: expected) { try short.decide(RequestDecision(level: 0)) }
    }

    /// A decision made by a closure on the lent context: refused out of turn without calling it,
    /// its own error passed on unchanged, its level checked; none of these changes the session.
    @Test func decidingWithAClosureChecksAsDecidingWithADecision() throws {
        struct Refusal: Error {}
        let (trace, video) = (try Self.trace(name: "bumpy"), try Self.video())
        var session = try StreamingSession(profile: .sabre, trace: trace, video: video, strategyID: "agent")
        var calls = 0
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        #expect(message { try session.decide { _ in calls += 1; return RequestDecision(level: 0) } }
            == "agent on bumpy: was given a decision while it waits for nothing until it is advanced to its next step")
        #expect(calls == 0)
        guard case .decide = try session.next() else { Issue.record("the first step is a decision"); return }
        #expect(throws: Refusal.self) { try session.decide { _ in throw Refusal() } }
        #expect(message { try session.decide { $0.segmentIndex == 0 ? RequestDecision(level: 4) : RequestDecision(level: 0) } }
            == "agent on bumpy: chose level 4 for segment 1; levels are 0…3")
        var strategy = Probe()
        let (result, _) = try Self.drive(&session, &strategy, events: true)
        var fresh = Probe()
        Self.expectSame(result, try SessionEmulator(profile: .sabre).run(&fresh, strategyID: "agent", trace: trace, video: video))
    }

    /// What ``StreamingSession/context`` shows is the session as it stands at every point, in
    /// the middle of a request too (where the session keeps no context of its own).
    @Test(arguments: profiles.map(\.name))
    func theContextShowsTheSessionAtEveryPoint(profileName: String) throws {
        let profile = try #require(Self.profiles.first { $0.name == profileName })
        var session = try StreamingSession(profile: profile, trace: try Self.trace(), video: try Self.video(), seed: 3, strategyID: "probe")
        var strategy = Probe()
        try strategy.setUp(session.info)
        var points = 0
        while true {
            let step = try session.nextEvent()
            let context = session.context
            #expect(context.downloads == session.downloads)
            #expect(context.segmentIndex == session.segmentIndex)
            #expect(context.elapsedSeconds == session.nowSeconds)
            points += 1
            switch step {
            case .decide: try session.decide { strategy.decide($0) }
            case .checkAbandonment(let progress): try session.answer(strategy.answerAbandonment(progress))
            case .waited, .downloaded, .network: continue
            case .finished: #expect(points > 100); return
            }
        }
    }

    /// An abandonment answer out of turn or to a level that is not lower names the session and
    /// changes nothing: the right answer afterwards plays on as the batch path does.
    @Test func badAbandonmentAnswerIsAClearErrorNamingTheSession() throws {
        let (trace, video) = (try Self.trace(name: "bumpy"), try Self.video())
        var session = try StreamingSession(profile: .sabre, trace: trace, video: video, strategyID: "agent")
        var strategy = Probe()
        try strategy.setUp(session.info)
        func message(_ body: () throws -> Void) -> String {
            do { try body() } catch { return "\(error)" }
            return "no error"
        }
        var checked = false
        while true {
            switch try session.next() {
            case .decide: try session.decide(strategy.decide(session.context))
            case .checkAbandonment(let progress) where progress.level > 0 && !checked:
                checked = true
                #expect(message { try session.decide(RequestDecision(level: 0)) }
                    == "agent on bumpy: was given a decision while it waits for the answer of an abandonment check on segment \(progress.segmentIndex + 1)")
                #expect(message { try session.answer(.abandon(to: progress.level)) }
                    == "agent on bumpy: the abandonment check returned level \(progress.level) while downloading level \(progress.level); it must return a lower level or nothing")
                #expect(message { try session.answer(.abandon(to: -1)) }.hasPrefix("agent on bumpy: the abandonment check returned level -1"))
                try session.answer(strategy.answerAbandonment(progress))
            case .checkAbandonment(let progress): try session.answer(strategy.answerAbandonment(progress))
            case .waited(let seconds): strategy.didWait(seconds: seconds, context: session.context)
            case .downloaded(let record):
                #expect(message { try session.answer(.goOn) }
                    == "agent on bumpy: was given an abandonment answer while it waits for nothing until it is advanced to its next step")
                strategy.didDownload(record, context: session.context)
            case .network: Issue.record("next() stops at no network event")
            case .finished(let result):
                #expect(checked)
                var alone = Probe()
                Self.expectSame(result, try SessionEmulator(profile: .sabre).run(&alone, strategyID: "agent", trace: trace, video: video))
                #expect(strategy.heard == alone.heard)
                return
            }
        }
    }

    /// The example of StreamingSession's documentation, as written there, plays a session.
    @Test func documentationExamplePlaysASession() throws {
        let (trace, video) = (try Self.trace(), try Self.video())
        func play() throws -> SessionResult {
            var session = try StreamingSession(profile: .sabre, trace: trace, video: video, seed: 1)
            while true {
                switch try session.next() {
                case .decide:
                    try session.decide { context in RequestDecision(level: context.bufferSeconds > 10 ? context.levelCount - 1 : 0) }
                case .checkAbandonment(let progress):
                    try session.answer(progress.projectedSeconds > 8 ? .abandon(to: 0) : .goOn)
                case .waited, .downloaded, .network: continue
                case .finished(let result): return result
                }
            }
        }
        let result = try play()
        #expect(result.segments.count == video.segmentCount)
        #expect(Set(result.segments.map(\.level)).count == 2)
    }
}
