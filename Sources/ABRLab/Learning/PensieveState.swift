/// The state Pensieve's test harness feeds its actor, kept exactly as `test/rl_no_training.py`
/// builds it (Mao et al., SIGCOMM 2017, doi:10.1145/3098822.3098843).
///
/// Six rows of `columns` values, all zero at session start. After every download each row is
/// rotated one column to the left circularly (numpy's `roll` by −1), then: row 0 gets the
/// bitrate just downloaded over the ladder's top, row 1 the buffer / 10 s, row 2 the
/// throughput (bytes / delay in ms / 1000), row 3 the delay in ms / 1000 / 10, row 4 the next
/// segment's sizes at every level in MB (columns 0…levels−1; the rest only rotate, so the last
/// column keeps an older value that branch 6 reads), row 5 min(segments left, 48) / 48.
public struct PensieveState: Sendable, Equatable {
    /// Rows of the state.
    public static let rows = 6
    /// Pensieve's cap on the segments-left feature (`CHUNK_TIL_VIDEO_END_CAP`).
    public static let segmentsLeftCap = 48.0
    /// Pensieve's `BUFFER_NORM_FACTOR`, seconds.
    static let normalizationSeconds = 10.0

    public let columns: Int
    /// Row-major, `rows × columns`.
    public private(set) var cells: [Double]

    public init(columns: Int) {
        self.columns = columns
        cells = [Double](repeating: 0, count: Self.rows * columns)
    }

    /// The state as rows.
    public var rows: [[Double]] {
        (0..<Self.rows).map { Array(cells[$0 * columns..<($0 + 1) * columns]) }
    }

    /// Records a finished download; `context` is the one after it (its `segmentIndex` is the
    /// next segment's). The next sizes wrap to segment 0 after the last segment, as Pensieve's
    /// emulator resets its counter there.
    public mutating func record(_ download: DownloadRecord, context: DecisionContext) {
        let topKbps = context.ladder.map(\.bitrateKbps).max() ?? 1
        record(download, nextSegment: context.segmentIndex, segmentCount: context.segmentCount, video: context.video, topKbps: topKbps)
    }

    /// As ``record(_:context:)``, from what it reads off the context: the next segment's index,
    /// the session's segment count, the video and its top bitrate. A caller stepping many
    /// sessions passes them without copying a context at every download.
    public mutating func record(_ download: DownloadRecord, nextSegment: Int, segmentCount: Int, video: Video, topKbps: Double) {
        let columns = columns
        let last = columns - 1
        let delayMs = download.downloadTimeSeconds * 1000
        let next = nextSegment < segmentCount ? nextSegment : 0
        let left = Double(segmentCount - (download.segmentIndex + 1))
        // In place through a pointer: every download of every stepped session comes here.
        cells.withUnsafeMutableBufferPointer { cells in
            let cells = cells.baseAddress!
            for row in 0..<Self.rows {
                let start = cells + row * columns
                let first = start[0]
                for column in 0..<last { start[column] = start[column + 1] }
                start[last] = first
            }
            cells[last] = video.bitrateKbps(level: download.level) / topKbps
            cells[columns + last] = download.bufferSeconds / Self.normalizationSeconds
            cells[2 * columns + last] = Double(download.sizeBytes) / delayMs / 1000
            cells[3 * columns + last] = delayMs / 1000 / Self.normalizationSeconds
            for level in 0..<min(video.levelCount, columns) {
                cells[4 * columns + level] = Double(video.sizeBytes(segment: next, level: level)) / 1000 / 1000
            }
            cells[5 * columns + last] = min(left, Self.segmentsLeftCap) / Self.segmentsLeftCap
        }
    }
}
