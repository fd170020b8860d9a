/// One CMAF chunk of a live download, as the player saw it arrive.
///
/// A chunk's bytes flow only once the encoder has produced it, so `firstByteSeconds` is never
/// before `availableSeconds`; the gap between the previous chunk's last byte and this chunk's
/// availability is production time, not network time.
public struct ChunkRecord: Equatable, Sendable {
    /// 0-based chunk index within its segment.
    public var index: Int
    public var sizeBytes: Int
    /// Session time at which the encoder finished the chunk (it could be sent from then on).
    public var availableSeconds: Double
    /// Session time at which its first byte arrived.
    public var firstByteSeconds: Double
    /// Session time at which its last byte arrived.
    public var arrivalSeconds: Double

    public init(index: Int, sizeBytes: Int, availableSeconds: Double, firstByteSeconds: Double, arrivalSeconds: Double) {
        self.index = index
        self.sizeBytes = sizeBytes
        self.availableSeconds = availableSeconds
        self.firstByteSeconds = firstByteSeconds
        self.arrivalSeconds = arrivalSeconds
    }

    /// Time its bytes were arriving (first to last byte).
    public var transferSeconds: Double { arrivalSeconds - firstByteSeconds }
}
