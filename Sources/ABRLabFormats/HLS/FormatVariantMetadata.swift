import ABRLab

/// A format variant becoming active (seed 003): the format's name and when it starts.
///
/// The seed stamps it with a `CMTime` on the player item's timeline; abrlab uses seconds on the
/// media timeline (a playlist's or a video's), so times compare across sources.
public struct FormatVariantMetadata: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The backend's format name: `LOW`, `HIGH`, `LOSSLESS` or `HI_RES_LOSSLESS`.
    public let formatString: String
    /// When the format becomes active, seconds on the media timeline.
    public let timestampSeconds: Double

    public init(formatString: String, timestampSeconds: Double) {
        self.formatString = formatString
        self.timestampSeconds = timestampSeconds
    }

    /// From a `Duration`, the nearest Swift counterpart of the seed's `CMTime`.
    public init(formatString: String, timestamp: Duration) {
        self.init(formatString: formatString, timestampSeconds: timestamp.seconds)
    }

    /// `HIGH at 5.000s`, for logs.
    public var description: String {
        let milliseconds = Int((timestampSeconds * 1000).rounded())
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        let fraction = String(magnitude % 1000)
        return "\(formatString) at \(sign)\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    }
}
