/// What one finished segment download looked like, as strategies see it.
public struct DownloadRecord: Equatable, Sendable {
    /// 0-based segment index.
    public var segmentIndex: Int
    /// 0-based level index.
    public var level: Int
    public var sizeBytes: Int
    /// From request to last byte, request latency included.
    public var downloadTimeSeconds: Double
    /// `sizeBytes × 8 / downloadTimeSeconds / 1000`.
    public var throughputKbps: Double
    /// Stall this download caused.
    public var rebufferSeconds: Double
    /// Buffer after the segment arrived (and after any full-buffer wait).
    public var bufferSeconds: Double
    /// Time the player waited afterwards because its buffer was full.
    public var waitSeconds: Double

    public init(
        segmentIndex: Int, level: Int, sizeBytes: Int, downloadTimeSeconds: Double, throughputKbps: Double,
        rebufferSeconds: Double, bufferSeconds: Double, waitSeconds: Double
    ) {
        self.segmentIndex = segmentIndex
        self.level = level
        self.sizeBytes = sizeBytes
        self.downloadTimeSeconds = downloadTimeSeconds
        self.throughputKbps = throughputKbps
        self.rebufferSeconds = rebufferSeconds
        self.bufferSeconds = bufferSeconds
        self.waitSeconds = waitSeconds
    }
}
