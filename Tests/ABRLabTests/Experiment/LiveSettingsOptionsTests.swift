import ABRLab
import Testing
import TestSupport

/// The warm-up and catch-up options over a profile's live settings: they change what they name
/// and keep the rest of the profile's, on `live` and on `twitch-challenge`.
@Suite(.tags(.core), .selectedByTags) struct LiveSettingsOptionsTests {
    static let challenge = EmulationProfile.twitchChallenge.liveSettings!

    @Test func theChallengeProfileIsTheRecipe() {
        #expect(Self.challenge.targetLatencySeconds == 1)
        #expect(Self.challenge.catchUpRule == .dashjs3(minDriftSeconds: 0.05))
        #expect(Self.challenge.maxDriftSeconds == 0)
        #expect(Self.challenge.warmup == LiveWarmup(seconds: 10, linkKbps: 3000))
    }

    @Test func catchupOptions() throws {
        var live = LiveSettings()
        try live.applyCatchup(name: "dashjs3", minDriftSeconds: nil)
        #expect(live.catchUpRule == .dashjs3(minDriftSeconds: 0.02) && live.maxDriftSeconds == 0)
        try live.applyCatchup(name: "dashjs5", minDriftSeconds: nil)
        #expect(live.catchUpRule == .dashjs5 && live.maxDriftSeconds == 12)
        var challenge = Self.challenge
        try challenge.applyCatchup(name: nil, minDriftSeconds: 0.1)
        #expect(challenge.catchUpRule == .dashjs3(minDriftSeconds: 0.1) && challenge.maxDriftSeconds == 0)
        var again = Self.challenge
        try again.applyCatchup(name: "dashjs3", minDriftSeconds: nil)
        #expect(again == Self.challenge)
        try again.applyCatchup(name: nil, minDriftSeconds: nil)
        #expect(again == Self.challenge)
    }

    @Test func warmupOptions() throws {
        var live = LiveSettings()
        try live.applyWarmup(seconds: nil, linkKbps: nil)
        #expect(live.warmup == nil)
        try live.applyWarmup(seconds: 5, linkKbps: nil)
        #expect(live.warmup == LiveWarmup(seconds: 5, linkKbps: 3000))
        var challenge = Self.challenge
        try challenge.applyWarmup(seconds: nil, linkKbps: 5000)
        #expect(challenge.warmup == LiveWarmup(seconds: 10, linkKbps: 5000))
        try challenge.applyWarmup(seconds: 0, linkKbps: nil)
        #expect(challenge.warmup == LiveWarmup(seconds: 0, linkKbps: 5000))
        var plain = LiveSettings()
        #expect(throws: InputError(setting: .warmupKbps, "sets the warm-up's link; give \(Setting.warmupS) too")) {
            try plain.applyWarmup(seconds: nil, linkKbps: 5000)
        }
    }
}
