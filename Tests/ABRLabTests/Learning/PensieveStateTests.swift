import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct PensieveStateTests {
    static let ladder = [300, 750, 1200, 1850, 2850, 4300].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }

    static func video() throws -> Video {
        try Video(name: "v", segmentDurationSeconds: 4, ladder: ladder, sizesBytes: (0..<4).map { s in (0..<6).map { 1_000_000 * (s + 1) + $0 } })
    }

    static func context(_ video: Video, next: Int, count: Int = 3) -> DecisionContext {
        DecisionContext(
            segmentIndex: next, segmentCount: count, segmentDurationSeconds: 4, ladder: ladder, lastLevel: 0, bufferSeconds: 0,
            rebufferSeconds: 0, stallCount: 0, elapsedSeconds: 0, estimateKbps: 0, networkQuality: .good, downloads: [], video: video
        )
    }

    static func download(_ segment: Int, level: Int, bytes: Int, seconds: Double, buffer: Double) -> DownloadRecord {
        DownloadRecord(segmentIndex: segment, level: level, sizeBytes: bytes, downloadTimeSeconds: seconds, throughputKbps: 0, rebufferSeconds: 0, bufferSeconds: buffer, waitSeconds: 0)
    }

    @Test func rowsFollowTheHarnessIncludingTheCircularRotation() throws {
        let video = try Self.video()
        var state = PensieveState(columns: 8)
        state.record(Self.download(0, level: 1, bytes: 500_000, seconds: 1.08, buffer: 4), context: Self.context(video, next: 1))
        var rows = state.rows
        #expect(rows[0][7] == 750.0 / 4300)
        #expect(rows[1][7] == 0.4)
        #expect(rows[2][7] == 500_000.0 / 1080 / 1000)
        #expect(abs(rows[3][7] - 0.108) < 1e-15)
        let nextSizes: [Double] = (0..<6).map { (level: Int) -> Double in Double(2_000_000 + level) / 1000 / 1000 }
        #expect(Array(rows[4][0..<6]) == nextSizes)
        #expect(rows[4][6] == 0 && rows[4][7] == 0)
        #expect(rows[5][7] == 2.0 / 48)

        state.record(Self.download(1, level: 5, bytes: 900_000, seconds: 2, buffer: 6), context: Self.context(video, next: 2))
        rows = state.rows
        #expect(Array(rows[0][6...7]) == [750.0 / 4300, 1])
        // Row 4 rotates before it is written: column 7 now holds the previous level-0 next size.
        #expect(rows[4][7] == 2.0)
        #expect(rows[4][0] == 3.000000)
        #expect(Array(rows[5][6...7]) == [2.0 / 48, 1.0 / 48])

        // After the last segment the next sizes are the first segment's.
        state.record(Self.download(2, level: 0, bytes: 100_000, seconds: 1, buffer: 5), context: Self.context(video, next: 3))
        #expect(state.rows[4][0] == 1.0)
        #expect(state.rows[5][7] == 0)
    }

    /// The overload a caller stepping many sessions uses writes what the context one writes.
    @Test func recordingFromNumbersEqualsRecordingFromTheContext() throws {
        let video = try Self.video()
        var fromContext = PensieveState(columns: 8)
        var fromNumbers = PensieveState(columns: 8)
        for (segment, level) in [(0, 1), (1, 5), (2, 0)] {
            let download = Self.download(segment, level: level, bytes: 300_000 * (level + 1), seconds: 0.9 + Double(level), buffer: 4)
            fromContext.record(download, context: Self.context(video, next: segment + 1))
            fromNumbers.record(download, nextSegment: segment + 1, segmentCount: 3, video: video, topKbps: 4300)
            #expect(fromNumbers == fromContext)
        }
    }
}
