import ABRLab
import Foundation

/// A session worked out by hand, for the timelines rebuilt from segment records.
public enum HandPlayedSession {
    public static func record(
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
    public static func session(withTransitions: Bool = true) -> SessionResult {
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
}
