@testable import ABRLab
import Testing
import TestSupport

/// Players on one link share it as a fluid processor-sharing bottleneck, equally or by weight:
/// the closed-form cases of the model hold, a group of one is the single session byte for byte
/// (a failing strategy included), equal weights are the equal share to the bit, and profiles
/// whose players cannot share a link are refused with their reason.
@Suite(.tags(.core), .selectedByTags) struct LinkGroupTests {
    /// Always the same level.
    struct Fixed: SessionStrategy {
        let level: Int
        func chooseLevel(_ context: DecisionContext) -> Int { level }
    }

    /// A link of constant `kbps` with no latency, long enough for every case here.
    static func constantLink(kbps: Double) throws -> NetworkTrace {
        try NetworkTrace(name: "constant", periodEndSeconds: [10_000], bandwidthBitsPerSecond: [kbps * 1000], latencySeconds: [0])
    }

    /// A constant-bitrate video whose levels are `kbps`, 2 s segments.
    static func video(kbps: [Int], segments: Int) throws -> Video {
        let ladder = kbps.enumerated().map { BitrateLevel(bitrate: $1 * 1000, label: "L\($0)") }
        return try Video(name: "cbr", segmentDurationSeconds: 2, ladder: ladder, segmentCount: segments)
    }

    static func play(
        _ levels: [Int], trace: NetworkTrace, video: Video, profile: EmulationProfile = .default, staggerSeconds: Double = 0,
        share: LinkShare = .equal
    ) throws -> [SessionResult] {
        let group = try LinkGroup(
            emulator: SessionEmulator(profile: profile), trace: trace, video: video, staggerSeconds: staggerSeconds, share: share
        )
        let players = levels.enumerated().map { LinkGroup.Player(strategyID: "fixed\($0)", seed: 1, strategy: Fixed(level: $1)) }
        return try group.play(players).map { try $0.get() }
    }

    /// The profiles whose players share a link.
    static let sharing: [EmulationProfile] = [.default, .sabre]

    @Test(arguments: sharing, [1, 2, 3, 8])
    func identicalPlayersEachTakeTheirShare(profile: EmulationProfile, players: Int) throws {
        // S = 600 kbps × 2 s = 1.2 Mbit on C = 2400 kbps: N·S/C = N / 2 seconds per segment.
        let results = try Self.play(
            Array(repeating: 1, count: players), trace: Self.constantLink(kbps: 2400), video: Self.video(kbps: [300, 600], segments: 40), profile: profile
        )
        let expected = Double(players) * 1_200_000 / 2_400_000
        for result in results {
            #expect(result.segments.count == 40)
            for segment in result.segments {
                #expect(abs(segment.downloadTimeSeconds - expected) < 1e-9)
                #expect(abs(segment.throughputKbps - 2400 / Double(players)) < 1e-6)
            }
        }
    }

    @Test(arguments: sharing, [0.0, 0.25, 0.4, 0.9])
    func staggeredStartsFollowThePiecewiseLinearSchedule(profile: EmulationProfile, staggerSeconds s: Double) throws {
        // S / C = 1 s. Player 2 joins s seconds in, while player 1's first segment (S − C·s left)
        // is under way: from then on each has C/2 until player 1 is done, and player 2 finishes
        // its last segment alone.
        let results = try Self.play([0, 0], trace: Self.constantLink(kbps: 1000), video: Self.video(kbps: [500], segments: 5), profile: profile, staggerSeconds: s)
        let first = results[0].segments.map(\.downloadTimeSeconds)
        let second = results[1].segments.map(\.downloadTimeSeconds)
        for (seconds, expected) in zip(first, [2 - s, 2, 2, 2, 2]) { #expect(abs(seconds - expected) < 1e-9) }
        for (seconds, expected) in zip(second, [2, 2, 2, 2, 2 - s]) { #expect(abs(seconds - expected) < 1e-9) }
        // Each player's times are its own: player 2's first request goes out at its time 0.
        #expect(results[1].segments[0].downloadStartSeconds == 0)
    }

    @Test(arguments: sharing)
    func playersOfDifferentLevelsFinishWhenTheFluidModelSays(profile: EmulationProfile) throws {
        // S1 = 0.6 Mbit, S2 = 2.4 Mbit per segment, C = 1.5 Mbps, 6 segments each: both get C/2
        // until the low player ends at 2·6·S1/C = 4.8 s; the high one ends when the link has
        // carried every bit, 6·(S1 + S2)/C = 12 s.
        let results = try Self.play([0, 1], trace: Self.constantLink(kbps: 1500), video: Self.video(kbps: [300, 1200], segments: 6), profile: profile)
        let low = try #require(results[0].segments.last)
        let high = try #require(results[1].segments.last)
        #expect(abs(low.downloadEndSeconds - 4.8) < 1e-9)
        #expect(abs(high.downloadEndSeconds - 12) < 1e-9)
        for segment in results[0].segments { #expect(abs(segment.downloadTimeSeconds - 0.8) < 1e-9) }
        for segment in results[1].segments.prefix(1) { #expect(abs(segment.downloadTimeSeconds - 3.2) < 1e-9) }
    }

    @Test(arguments: sharing)
    func weightedPlayersTakeTheirWeightsShareUntilOneFinishes(profile: EmulationProfile) throws {
        // S = 500 kbps × 2 s = 1 Mbit per segment, 5 segments each, C = 1 Mbps. Weights 1 and 3:
        // player 1 gets C/4 and player 2 3C/4, so player 2 takes 4/3 s a segment and ends at
        // 5 · 4/3 = 20/3 s. By then player 1 has 20/3 · 1/4 = 5/3 Mbit: its first segment ends at
        // 4 s, its second has 2/3 Mbit and gets the rest, 1/3 Mbit, alone at C: done at 7 s.
        // Its last three take 1 s each, so it ends at 10 s, when the link has carried all 10 Mbit.
        let results = try Self.play(
            [0, 0], trace: Self.constantLink(kbps: 1000), video: Self.video(kbps: [500], segments: 5), profile: profile,
            share: .weighted(try LinkShare.Weights([1, 3]))
        )
        let light = results[0].segments
        let heavy = results[1].segments
        for (segment, seconds) in zip(light, [4.0, 3, 1, 1, 1]) { #expect(abs(segment.downloadTimeSeconds - seconds) < 1e-9) }
        for segment in heavy { #expect(abs(segment.downloadTimeSeconds - 4.0 / 3) < 1e-9) }
        #expect(abs((heavy.last?.downloadEndSeconds ?? 0) - 20.0 / 3) < 1e-9)
        #expect(abs((light.last?.downloadEndSeconds ?? 0) - 10) < 1e-9)
        #expect(abs(light[0].throughputKbps - 250) < 1e-6 && abs(heavy[0].throughputKbps - 750) < 1e-6)
    }

    @Test(arguments: sharing)
    func weightsRepeatOverTheSeatsAsAMixDoes(profile: EmulationProfile) throws {
        // Weights 1, 2 on three seats are 1, 2, 1: shares C/4, C/2, C/4. With S = 1 Mbit, two
        // segments each and C = 1 Mbps, player 2 ends at 4 s (2 s a segment); players 1 and 3 have
        // their first segment by then (4 s each) and split the link for the second (2 s), to 6 s.
        let results = try Self.play(
            [0, 0, 0], trace: Self.constantLink(kbps: 1000), video: Self.video(kbps: [500], segments: 2), profile: profile,
            share: .weighted(try LinkShare.Weights([1, 2]))
        )
        for (player, expected) in [[4.0, 2], [2, 2], [4, 2]].enumerated() {
            for (segment, seconds) in zip(results[player].segments, expected) { #expect(abs(segment.downloadTimeSeconds - seconds) < 1e-9) }
        }
    }

    @Test(arguments: ["default", "sabre", "sabre-replace"], [[1.0], [0.1], [2.5, 2.5, 2.5]])
    func equalWeightsAreTheEqualShareToTheBit(profileName: String, weights: [Double]) throws {
        let profile = try #require(StreamingSessionTests.profiles.first { $0.name == profileName })
        let (trace, video) = (try StreamingSessionTests.trace(), try StreamingSessionTests.video())
        func play(_ share: LinkShare) throws -> [SessionResult] {
            let group = try LinkGroup(emulator: SessionEmulator(profile: profile), trace: trace, video: video, staggerSeconds: 1.5, share: share)
            let players = (0..<5).map { LinkGroup.Player(strategyID: "probe\($0)", seed: UInt64($0), strategy: StreamingSessionTests.Probe()) }
            return try group.play(players).map { try $0.get() }
        }
        let weighted = try play(.weighted(try LinkShare.Weights(weights)))
        for (shared, equal) in zip(weighted, try play(.equal)) { StreamingSessionTests.expectSame(shared, equal) }
    }

    @Test(arguments: [[], [0], [1, -1], [.nan], [.infinity], [1, 2, -0.0]])
    func weightsThatAreNoPositiveNumbersAreRefused(values: [Double]) {
        #expect(throws: InputError.self) { try LinkShare.Weights(values) }
    }

    @Test(arguments: ["default", "sabre", "sabre-replace"])
    func aGroupOfOneIsTheSingleSession(profileName: String) throws {
        let profile = try #require(StreamingSessionTests.profiles.first { $0.name == profileName })
        let (trace, video) = (try StreamingSessionTests.trace(), try StreamingSessionTests.video())
        var alone = StreamingSessionTests.Probe()
        let single = try SessionEmulator(profile: profile).run(&alone, strategyID: "probe", trace: trace, video: video, seed: 3)
        let group = try LinkGroup(emulator: SessionEmulator(profile: profile), trace: trace, video: video)
        let shared = try #require(group.play([LinkGroup.Player(strategyID: "probe", seed: 3, strategy: StreamingSessionTests.Probe())]).first).get()
        StreamingSessionTests.expectSame(shared, single)
    }

    /// Fails at one hook on one segment (0-based), as a strategy's bug would.
    struct FailingAt: SessionStrategy {
        enum Hook: CaseIterable { case decide, didDownload }
        struct Failure: Error {}
        let hook: Hook
        let segment: Int

        func chooseLevel(_ context: DecisionContext) throws -> Int {
            if hook == .decide, context.segmentIndex == segment { throw Failure() }
            return 1
        }

        func didDownload(_ record: DownloadRecord, context: DecisionContext) throws {
            if hook == .didDownload, record.segmentIndex == segment { throw Failure() }
        }
    }

    @Test(arguments: ["default", "sabre", "sabre-replace"], FailingAt.Hook.allCases)
    func aPlayersStrategyFailsAsInTheSingleSession(profileName: String, hook: FailingAt.Hook) throws {
        let profile = try #require(StreamingSessionTests.profiles.first { $0.name == profileName })
        let (trace, video) = (try StreamingSessionTests.trace(), try StreamingSessionTests.video())
        var alone = FailingAt(hook: hook, segment: 3)
        let single = try #require(throws: EmulationError.self) {
            try SessionEmulator(profile: profile).run(&alone, strategyID: "failing", trace: trace, video: video, seed: 3)
        }
        let group = try LinkGroup(emulator: SessionEmulator(profile: profile), trace: trace, video: video)
        let player = LinkGroup.Player(strategyID: "failing", seed: 3, strategy: FailingAt(hook: hook, segment: 3))
        let shared = try #require(group.play([player]).first)
        #expect(throws: single) { try shared.get() }
    }

    @Test(arguments: ["default", "sabre", "sabre-replace"])
    func playersAsManyAsTheLinkHoldsStillPlayEverySegmentOfAVariedTrace(profileName: String) throws {
        let profile = try #require(StreamingSessionTests.profiles.first { $0.name == profileName })
        let (trace, video) = (try StreamingSessionTests.trace(), try StreamingSessionTests.video())
        let group = try LinkGroup(emulator: SessionEmulator(profile: profile), trace: trace, video: video, staggerSeconds: 1.5)
        let players = (0..<6).map { LinkGroup.Player(strategyID: "probe\($0)", seed: UInt64($0), strategy: StreamingSessionTests.Probe()) }
        let results = try group.play(players).map { try $0.get() }
        var bits = 0.0
        var lastEndSeconds = 0.0
        for (index, result) in results.enumerated() {
            #expect(result.segments.count == video.segmentCount)
            // No transfer runs faster than the link at its fastest.
            #expect(result.segments.allSatisfy { $0.throughputKbps <= 6000 + 1e-6 })
            bits += result.segments.reduce(0) { $0 + Double($1.sizeBytes) * 8 }
            lastEndSeconds = max(lastEndSeconds, group.startSeconds(player: index) + (result.segments.last?.downloadEndSeconds ?? 0))
        }
        // Together they carry no more than the link can: 6 Mbit/s at most.
        #expect(bits <= lastEndSeconds * 6_000_000)
    }

    @Test(arguments: [EmulationProfile.pensieve, .live])
    func profilesWhosePlayersCannotShareAreRefused(profile: EmulationProfile) throws {
        let refusal = try #require(LinkGroup.refusal(for: profile))
        #expect(InputError(setting: .players, refusal).described(naming: \.rawValue).contains("profile \(profile.name)"))
        #expect(throws: InputError.self) {
            try LinkGroup(emulator: SessionEmulator(profile: profile), trace: try Self.constantLink(kbps: 1000), video: try Self.video(kbps: [300], segments: 2))
        }
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func aStaggerThatIsNoTimeIsRefused(seconds: Double) throws {
        #expect(throws: InputError.self) {
            try LinkGroup(emulator: SessionEmulator(profile: .default), trace: try Self.constantLink(kbps: 1000), video: try Self.video(kbps: [300], segments: 2), staggerSeconds: seconds)
        }
    }
}
