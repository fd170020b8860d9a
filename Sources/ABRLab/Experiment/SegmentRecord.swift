/// One row of a session's timeline: what happened to one segment.
public struct SegmentRecord: Equatable, Sendable {
    /// 0-based.
    public var index: Int
    /// 0-based level.
    public var level: Int
    public var bitrateKbps: Double
    public var sizeBytes: Int
    /// Session time when the request went out.
    public var downloadStartSeconds: Double
    /// Session time when the last byte arrived.
    public var downloadEndSeconds: Double
    /// Request latency plus transfer time.
    public var downloadTimeSeconds: Double
    /// The latency part of the download time.
    public var latencySeconds: Double
    /// `sizeBytes × 8 / downloadTimeSeconds / 1000`.
    public var throughputKbps: Double
    public var bufferBeforeSeconds: Double
    /// After the segment arrived and after any full-buffer wait.
    public var bufferAfterSeconds: Double
    /// Stall caused by this download (for the first segment, the startup delay when the
    /// profile counts it as rebuffering).
    public var rebufferSeconds: Double
    /// Time spent waiting afterwards because the buffer was full.
    public var waitSeconds: Double
    /// Buffer state of `bufferAfterSeconds`.
    public var bufferState: BufferState
    /// The estimator's estimate after this download.
    public var estimateKbps: Double
    public var networkQuality: NetworkQuality
    /// Requests it took: 1, plus abandoned attempts and replacements.
    public var requests: Int = 1
    /// Bytes of its abandoned requests.
    public var wastedBytes: Double = 0
    /// Level it was downloaded at before a replacement changed it; `nil` when never replaced.
    public var replacedLevel: Int?
    /// Where the live player stood when the segment arrived; `nil` off the `live` profile.
    public var live: LiveSegmentStats?

    public init(
        index: Int, level: Int, bitrateKbps: Double, sizeBytes: Int, downloadStartSeconds: Double,
        downloadEndSeconds: Double, downloadTimeSeconds: Double, latencySeconds: Double, throughputKbps: Double,
        bufferBeforeSeconds: Double, bufferAfterSeconds: Double, rebufferSeconds: Double, waitSeconds: Double,
        bufferState: BufferState, estimateKbps: Double, networkQuality: NetworkQuality
    ) {
        self.index = index
        self.level = level
        self.bitrateKbps = bitrateKbps
        self.sizeBytes = sizeBytes
        self.downloadStartSeconds = downloadStartSeconds
        self.downloadEndSeconds = downloadEndSeconds
        self.downloadTimeSeconds = downloadTimeSeconds
        self.latencySeconds = latencySeconds
        self.throughputKbps = throughputKbps
        self.bufferBeforeSeconds = bufferBeforeSeconds
        self.bufferAfterSeconds = bufferAfterSeconds
        self.rebufferSeconds = rebufferSeconds
        self.waitSeconds = waitSeconds
        self.bufferState = bufferState
        self.estimateKbps = estimateKbps
        self.networkQuality = networkQuality
    }
}
