import ABRLab

/// A sub-range of a resource (`EXT-X-BYTERANGE`, or `BYTERANGE` of `EXT-X-MAP`), with its offset
/// resolved: a range written without `@offset` starts where the previous one ended.
public struct HLSByteRange: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var lengthBytes: Int
    public var offsetBytes: Int

    public init(lengthBytes: Int, offsetBytes: Int) {
        self.lengthBytes = lengthBytes
        self.offsetBytes = offsetBytes
    }

    /// The byte after the range: where a following range without an offset starts.
    public var endBytes: Int { offsetBytes + lengthBytes }

    /// `length@offset`, as playlists write it.
    public var description: String { "\(lengthBytes)@\(offsetBytes)" }

    /// Splits `n[@o]`; nil when the text is not of that form. Lengths must be > 0.
    static func parts(_ text: some StringProtocol) -> (lengthBytes: Int, offsetBytes: Int?)? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(HLSAttributeList.isDigit) }),
              let length = Int(parts[0]), length > 0 else { return nil }
        guard parts.count == 2 else { return (length, nil) }
        guard let offset = Int(parts[1]) else { return nil }
        return (length, offset)
    }
}
