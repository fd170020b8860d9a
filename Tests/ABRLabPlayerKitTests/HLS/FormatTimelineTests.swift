import ABRLab
import ABRLabFormats
import ABRLabPlayerKit
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct FormatTimelineTests {
    /// A record of `index` at `level` that arrived at `arrivalSeconds`; other fields do not matter here.
    static func record(_ index: Int, level: Int, arrivalSeconds: Double) -> SegmentRecord {
        SegmentRecord(
            index: index, level: level, bitrateKbps: 0, sizeBytes: 1, downloadStartSeconds: arrivalSeconds - 1,
            downloadEndSeconds: arrivalSeconds, downloadTimeSeconds: 1, latencySeconds: 0, throughputKbps: 0,
            bufferBeforeSeconds: 0, bufferAfterSeconds: 4, rebufferSeconds: 0, waitSeconds: 0, bufferState: .low,
            estimateKbps: 0, networkQuality: .good
        )
    }

    /// Levels HIGH, HIGH, LOSSLESS, LOSSLESS, HIGH, LOW on the audio preset.
    static func records() -> [SegmentRecord] {
        [1, 1, 2, 2, 1, 0].enumerated().map { record($0.offset, level: $0.element, arrivalSeconds: Double($0.offset) * 3 + 1) }
    }

    @Test func reportsEachFormatChangeOnce() throws {
        let video = try AudioFormatPreset.video(segmentCount: 6)
        let changes = FormatTimeline.changes(video: video, segments: Self.records())
        #expect(changes == [
            .init(segmentIndex: 0, level: 1, format: "HIGH", mediaSeconds: 0, arrivalSeconds: 1),
            .init(segmentIndex: 2, level: 2, format: "LOSSLESS", mediaSeconds: 8, arrivalSeconds: 7),
            .init(segmentIndex: 4, level: 1, format: "HIGH", mediaSeconds: 16, arrivalSeconds: 13),
            .init(segmentIndex: 5, level: 0, format: "LOW", mediaSeconds: 20, arrivalSeconds: 16),
        ])
        #expect(changes[1].metadata == FormatVariantMetadata(formatString: "LOSSLESS", timestampSeconds: 8))
    }

    @Test func levelsWithoutAFormatCarryTheLastOneOver() throws {
        let video = try Video(
            name: "mixed", segmentDurationSeconds: 2,
            ladder: [BitrateLevel(bitrate: 1000, label: "a"), BitrateLevel(bitrate: 2000, label: "b"), BitrateLevel(bitrate: 3000, label: "c")],
            segmentCount: 4, formats: ["HIGH", nil, "HIGH"]
        )
        let segments = [0, 1, 2, 1].enumerated().map { Self.record($0.offset, level: $0.element, arrivalSeconds: Double($0.offset)) }
        #expect(FormatTimeline.changes(video: video, segments: segments).map(\.segmentIndex) == [0])
        let standard = try VideoPreset.standard.video(segmentCount: 4)
        #expect(FormatTimeline.changes(video: standard, segments: segments).isEmpty)
    }
}
