import ABRLab

/// An `EXT-X-MAP` tag: the media initialization section segments after it need.
public struct HLSMediaInitialization: Equatable, Sendable {
    public var uri: String
    /// `BYTERANGE` when given; an omitted offset means 0, as the initialization section has no
    /// previous range to continue from.
    public var byteRange: HLSByteRange?

    public init(uri: String, byteRange: HLSByteRange? = nil) {
        self.uri = uri
        self.byteRange = byteRange
    }
}
