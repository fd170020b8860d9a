/// Five coarse network classes, ordered from no connectivity to a fast link.
public enum NetworkQuality: Int, Comparable, Sendable, CaseIterable, Codable {
    case offline = 0
    case poor = 1
    case fair = 2
    case good = 3
    case excellent = 4

    public static func < (lhs: NetworkQuality, rhs: NetworkQuality) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The seed's bandwidth thresholds: exactly 0 is offline, below 500 kbps poor,
    /// below 2 Mbps fair, below 5 Mbps good, anything faster excellent.
    public init(bitsPerSecond: Double) {
        switch bitsPerSecond {
        case ...0: self = .offline
        case ..<500_000: self = .poor
        case ..<2_000_000: self = .fair
        case ..<5_000_000: self = .good
        default: self = .excellent
        }
    }

    /// Lower-case name used in CSV output and Lua contexts.
    public var name: String {
        switch self {
        case .offline: "offline"
        case .poor: "poor"
        case .fair: "fair"
        case .good: "good"
        case .excellent: "excellent"
        }
    }
}
