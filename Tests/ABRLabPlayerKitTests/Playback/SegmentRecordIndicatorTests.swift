import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SegmentRecordIndicatorTests {
    static func record(before: Double, after: Double, download: Double, wait: Double) -> SegmentRecord {
        SegmentRecord(
            index: 0, level: 0, bitrateKbps: 300, sizeBytes: 1, downloadStartSeconds: 0, downloadEndSeconds: download,
            downloadTimeSeconds: download, latencySeconds: 0, throughputKbps: 1, bufferBeforeSeconds: before,
            bufferAfterSeconds: after, rebufferSeconds: 0, waitSeconds: wait, bufferState: BufferState(bufferSeconds: after),
            estimateKbps: 0, networkQuality: .fair
        )
    }

    @Test(arguments: [
        // (before, after, download, wait, progress, fill rate, likely to keep up, network share)
        (0.0, 4.0, 2.0, 0.0, 4.0 / 30, 2.0, false, 1.0),
        (10, 4.5, 1, 0, 0.15, -5.5, true, 1),
        (58, 60, 1, 3, 1, 0.5, true, 0.25),
    ])
    func readings(before: Double, after: Double, download: Double, wait: Double, progress: Double, fill: Double, keepsUp: Bool, share: Double) {
        let row = Self.record(before: before, after: after, download: download, wait: wait)
        #expect(abs(row.bufferProgress - progress) < 1e-12)
        #expect(row.fillRateSecondsPerSecond == fill)
        #expect(row.isLikelyToKeepUp == keepsUp)
        #expect(row.networkActiveShare == share)
    }
}
