import ABRLab
import ABRLabPlayerKit
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BufferTimelineTests {
    static func record(
        _ index: Int, start: Double, end: Double, before: Double, after: Double, rebuffer: Double = 0, wait: Double = 0
    ) -> SegmentRecord {
        SegmentRecord(
            index: index, level: 0, bitrateKbps: 1000, sizeBytes: 500_000, downloadStartSeconds: start, downloadEndSeconds: end,
            downloadTimeSeconds: end - start, latencySeconds: 0, throughputKbps: 0, bufferBeforeSeconds: before,
            bufferAfterSeconds: after, rebufferSeconds: rebuffer, waitSeconds: wait,
            bufferState: BufferState(bufferSeconds: after), estimateKbps: 0, networkQuality: .good
        )
    }

    /// 4 s segments. Segment 0 downloads over [0, 2) and playback starts when it arrives; segment 1
    /// over [2, 5) arrives with 1 s left, the buffer (5 s) is over a 4 s cap so the player waits
    /// 1 s; segment 2 over [6, 12) drains the buffer at 10 and stalls 2 s; the end is at 16.
    static func session(withTransitions: Bool = true) -> SessionResult {
        let ready = PlaybackTransition(
            from: .loading(URL(fileURLWithPath: "/v")), to: .ready, action: .didBecomeReady,
            timestamp: Date(timeIntervalSinceReferenceDate: 2)
        )
        return SessionResult(
            traceName: "hand", profileName: "hand",
            segments: [
                record(0, start: 0, end: 2, before: 0, after: 4),
                record(1, start: 2, end: 5, before: 4, after: 4, wait: 1),
                record(2, start: 6, end: 12, before: 4, after: 4, rebuffer: 2),
            ],
            transitions: withTransitions ? [ready] : [], startupSeconds: 2, stallCount: 1, endSeconds: 16,
            segmentDurationSeconds: 4
        )
    }

    @Test func rebuildsTheHandComputedSession() {
        for withTransitions in [true, false] {
            let samples = BufferTimeline(session: Self.session(withTransitions: withTransitions)).samples(intervalSeconds: 1)
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
            segments: [Self.record(0, start: 0, end: 1, before: 0, after: 2), Self.record(1, start: 1, end: 2, before: 2, after: 4)],
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
        let samples = BufferTimeline(session: Self.session()).samples(intervalSeconds: 0.05)
        #expect(samples.count == 161)
        #expect(samples[3].timeSeconds == 0.3)
        #expect(samples.last?.timeSeconds == 16)
        // The rate is recomputed every 0.2 s: 0.1 s after a check is not more than 0.1 s.
        #expect(abs(samples[20].fillRateSecondsPerSecond - 20) < 1e-9)
        #expect(samples[21].fillRateSecondsPerSecond == samples[20].fillRateSecondsPerSecond)
        #expect(abs(samples[22].fillRateSecondsPerSecond + 1) < 1e-9)
        let uneven = BufferTimeline(session: Self.session()).samples(intervalSeconds: 5)
        #expect(uneven.map(\.timeSeconds) == [0, 5, 10, 15, 16])
    }

    @Test func writesCSVRows() {
        let samples = BufferTimeline(session: Self.session()).samples(intervalSeconds: 1)
        let lines = BufferTimeline.csvText(samples).split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines[0] == "time_s,buffer_s,buffer_state,progress,fill_rate_s_per_s,likely_to_keep_up,network_active")
        #expect(lines[1] == "0,0,empty,0,0,false,true")
        #expect(lines[3] == "2,4,low,0.13333333333333333,4,false,true")
        #expect(lines[6] == "5,5,low,0.16666666666666666,3,true,false")
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
