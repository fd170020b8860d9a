/// What one finished request looked like, as strategies see it: a segment delivered, or a
/// request abandoned part way, or a replacement of a buffered segment.
public struct DownloadRecord: Equatable, Sendable {
    /// 0-based segment index.
    public var segmentIndex: Int
    /// 0-based level index.
    public var level: Int
    public var sizeBytes: Int
    /// From request to last byte, request latency included.
    public var downloadTimeSeconds: Double
    /// `sizeBytes × 8 / downloadTimeSeconds / 1000`; on `live`, the chunk-based measure
    /// (``ThroughputMethod/chunk``) over the chunks the context then holds in `live.lastChunks`,
    /// as `downloadTimeSeconds` includes time spent waiting for the encoder.
    public var throughputKbps: Double
    /// Stall this download caused.
    public var rebufferSeconds: Double
    /// Buffer after the segment arrived (and after any full-buffer wait).
    public var bufferSeconds: Double
    /// Time the player waited afterwards because its buffer was full (`level` buffer profiles;
    /// on the `segments` buffer waits come before requests and are told through `didWait`).
    public var waitSeconds: Double
    /// Whether the request was abandoned before the segment arrived; its bytes are wasted.
    public var abandoned: Bool
    /// The level the abandonment check asked for, when the request was abandoned.
    public var abandonedToLevel: Int?
    /// Whether the request replaced a buffered segment instead of appending one.
    public var isReplacement: Bool
    /// Time from the request to the first byte (the latency part of `downloadTimeSeconds`).
    public var latencySeconds: Double
    /// Bytes that arrived (`sizeBytes` unless abandoned; fractional when sizes are in bits).
    public var receivedBytes: Double

    public init(
        segmentIndex: Int, level: Int, sizeBytes: Int, downloadTimeSeconds: Double, throughputKbps: Double,
        rebufferSeconds: Double, bufferSeconds: Double, waitSeconds: Double, abandoned: Bool = false,
        abandonedToLevel: Int? = nil, isReplacement: Bool = false, latencySeconds: Double = 0, receivedBytes: Double? = nil
    ) {
        self.segmentIndex = segmentIndex
        self.level = level
        self.sizeBytes = sizeBytes
        self.downloadTimeSeconds = downloadTimeSeconds
        self.throughputKbps = throughputKbps
        self.rebufferSeconds = rebufferSeconds
        self.bufferSeconds = bufferSeconds
        self.waitSeconds = waitSeconds
        self.abandoned = abandoned
        self.abandonedToLevel = abandonedToLevel
        self.isReplacement = isReplacement
        self.latencySeconds = latencySeconds
        self.receivedBytes = receivedBytes ?? Double(sizeBytes)
    }
}
