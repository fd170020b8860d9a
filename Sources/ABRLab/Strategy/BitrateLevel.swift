/// One rung of a bitrate ladder.
///
/// `bitrate` is in bits per second, as in the seed specification; `bitrateKbps` gives the
/// same value in kilobits per second for the emulator and scripts.
public struct BitrateLevel: Equatable, Hashable, Sendable, Comparable, Codable {
    /// Bits per second.
    public let bitrate: Int
    /// Human-readable name such as `720p` or `HIGH`.
    public let label: String

    public init(bitrate: Int, label: String) {
        self.bitrate = bitrate
        self.label = label
    }

    /// Orders by bitrate only, so ladders sort from lowest to highest.
    public static func < (lhs: BitrateLevel, rhs: BitrateLevel) -> Bool {
        lhs.bitrate < rhs.bitrate
    }

    /// The bitrate in kilobits per second.
    public var bitrateKbps: Double { Double(bitrate) / 1000 }

    /// The seed's preset ladder: 360p at 500 kbps up to 4K at 15 Mbps.
    public static let standardLevels: [BitrateLevel] = [
        BitrateLevel(bitrate: 500_000, label: "360p"),
        BitrateLevel(bitrate: 1_000_000, label: "480p"),
        BitrateLevel(bitrate: 2_500_000, label: "720p"),
        BitrateLevel(bitrate: 5_000_000, label: "1080p"),
        BitrateLevel(bitrate: 15_000_000, label: "4K"),
    ]
}
