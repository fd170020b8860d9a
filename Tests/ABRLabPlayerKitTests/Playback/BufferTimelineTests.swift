import ABRLab
import ABRLabPlayerKit
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BufferTimelineTests {
    @Test func rebuildsTheHandComputedSession() {
        for withTransitions in [true, false] {
            let samples = BufferTimeline(session: HandPlayedSession.session(withTransitions: withTransitions)).samples(intervalSeconds: 1)
            #expect(samples.map(\.timeSeconds) == (0...16).map(Double.init))
            #expect(samples.map(\.bufferSeconds) == [0, 0, 4, 3, 2, 5, 4, 3, 2, 1, 0, 0, 4, 3, 2, 1, 0])
            #expect(samples.map(\.isNetworkActive) == [
                true, true, true, true, true, false, true, true, true, true, true, true, false, false, false, false, false,
            ])
            #expect(samples.map(\.fillRateSecondsPerSecond) == [0, 0, 4, -1, -1, 3, -1, -1, -1, -1, -1, 0, 4, -1, -1, -1, -1])
            #expect(samples.map(\.state) == [
                .empty, .empty, .low, .low, .critical, .low, .low, .low, .critical, .critical, .empty, .empty,
                .low, .low, .critical, .critical, .empty,
            ])
            #expect(samples.map(\.isLikelyToKeepUp) == (0...16).map { $0 == 5 })
            #expect(samples[5].progress == 5.0 / 30)
        }
    }

    @Test func doesNotDrainBeforePlaybackStarts() {
        let session = SessionResult(
            traceName: "t", profileName: "p",
            segments: [HandPlayedSession.record(0, start: 0, end: 1, before: 0, after: 2), HandPlayedSession.record(1, start: 1, end: 2, before: 2, after: 4)],
            transitions: [], startupSeconds: 2, stallCount: 0, endSeconds: 6, segmentDurationSeconds: 2
        )
        let timeline = BufferTimeline(session: session)
        #expect(timeline.playbackStartSeconds == 2)
        #expect(timeline.bufferSeconds(atSeconds: 0.5) == 0)
        #expect(timeline.bufferSeconds(atSeconds: 1.5) == 2)
        #expect(timeline.bufferSeconds(atSeconds: 2.5) == 3.5)
        #expect(timeline.bufferSeconds(atSeconds: 7) == 0)
        #expect(timeline.isDownloading(atSeconds: 0))
        #expect(!timeline.isDownloading(atSeconds: 2))
    }

    @Test func samplesAtMostTenTimesASecond() {
        let samples = BufferTimeline(session: HandPlayedSession.session()).samples(intervalSeconds: 0.05)
        #expect(samples.count == 161)
        #expect(samples[3].timeSeconds == 0.3)
        #expect(samples.last?.timeSeconds == 16)
        // The rate is recomputed every 0.2 s: 0.1 s after a check is not more than 0.1 s.
        #expect(abs(samples[20].fillRateSecondsPerSecond - 20) < 1e-9)
        #expect(samples[21].fillRateSecondsPerSecond == samples[20].fillRateSecondsPerSecond)
        #expect(abs(samples[22].fillRateSecondsPerSecond + 1) < 1e-9)
        let uneven = BufferTimeline(session: HandPlayedSession.session()).samples(intervalSeconds: 5)
        #expect(uneven.map(\.timeSeconds) == [0, 5, 10, 15, 16])
    }

    @Test func matchesTheEmulatorAtEveryDownload() throws {
        let video = try EmulatorFixtures.video(segments: 8, segmentSeconds: 2)
        var strategy = ScriptedStrategy(levels: [0, 0, 1, 1, 0, 0, 0, 0])
        let session = try SessionEmulator(profile: EmulatorFixtures.idealProfile(maxBufferSeconds: 4, waitStep: 0.5)).run(
            &strategy, strategyID: "scripted", trace: try EmulatorFixtures.constantTrace(mbps: 1.5, seconds: 5), video: video
        )
        #expect(session.segments.contains { $0.waitSeconds > 0 })
        #expect(session.segments.contains { $0.rebufferSeconds > 0 })
        let timeline = BufferTimeline(session: session)
        for segment in session.segments {
            #expect(abs(timeline.bufferSeconds(atSeconds: segment.downloadStartSeconds) - segment.bufferBeforeSeconds) < 1e-9)
            #expect(abs(timeline.bufferSeconds(atSeconds: segment.downloadEndSeconds) - segment.bufferAfterSeconds - segment.waitSeconds) < 1e-9)
            #expect(timeline.isDownloading(atSeconds: (segment.downloadStartSeconds + segment.downloadEndSeconds) / 2))
        }
        #expect(timeline.bufferSeconds(atSeconds: session.endSeconds) == 0)
        #expect(timeline.endSeconds == session.endSeconds)
    }
}
