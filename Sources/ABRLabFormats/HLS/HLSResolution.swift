import ABRLab

/// A `RESOLUTION` attribute: width and height in pixels, written `1280x720`.
public struct HLSResolution: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let widthPixels: Int
    public let heightPixels: Int

    public init(widthPixels: Int, heightPixels: Int) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
    }

    /// Parses `WIDTHxHEIGHT` with decimal digits on both sides; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(HLSAttributeList.isDigit) }),
              let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(widthPixels: width, heightPixels: height)
    }

    public var description: String { "\(widthPixels)x\(heightPixels)" }
}
