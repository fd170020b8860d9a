/// A download under way, as an abandonment check sees it (about every 50 ms of download on the
/// `sabre` network).
public struct DownloadProgress: Equatable, Sendable {
    /// 0-based segment being downloaded.
    public var segmentIndex: Int
    /// 0-based level being downloaded.
    public var level: Int
    /// Size of the whole segment in bytes (fractional when the video gives sizes in bits).
    public var sizeBytes: Double
    /// Bytes received so far.
    public var receivedBytes: Double
    /// Time since the request, latency included.
    public var elapsedSeconds: Double
    /// Time from the request to the first byte.
    public var timeToFirstByteSeconds: Double
    /// Buffer when the request went out minus the time elapsed, floored at 0 (the buffer the
    /// download started from, not counting what plays meanwhile).
    public var bufferSeconds: Double
    /// Whether this download replaces a buffered segment.
    public var isReplacement: Bool

    public init(
        segmentIndex: Int, level: Int, sizeBytes: Double, receivedBytes: Double, elapsedSeconds: Double,
        timeToFirstByteSeconds: Double, bufferSeconds: Double, isReplacement: Bool = false
    ) {
        self.segmentIndex = segmentIndex
        self.level = level
        self.sizeBytes = sizeBytes
        self.receivedBytes = receivedBytes
        self.elapsedSeconds = elapsedSeconds
        self.timeToFirstByteSeconds = timeToFirstByteSeconds
        self.bufferSeconds = bufferSeconds
        self.isReplacement = isReplacement
    }
}

extension DownloadProgress {
    /// The download's total time if the rest arrives at the average rate since the first byte:
    /// elapsed + (size − received) · (elapsed − ttfb) / received (dash.js's abandonment estimate).
    /// Infinite before any byte has arrived.
    public var projectedSeconds: Double {
        let transferSeconds = elapsedSeconds - timeToFirstByteSeconds
        guard receivedBytes > 0, transferSeconds > 0 else { return .infinity }
        return elapsedSeconds + (sizeBytes - receivedBytes) * transferSeconds / receivedBytes
    }
}
