/// What a monitoring tick decides about the current bitrate.
public enum BitrateDecision: Equatable, Hashable, Sendable {
    /// Switch up to this bitrate (bits per second).
    case upgrade(to: Int)
    /// Switch down to this bitrate (bits per second).
    case downgrade(to: Int)
    /// Keep the current bitrate.
    case maintain

    /// The bitrate to play after this decision, given the one playing now.
    public func bitrate(from currentBitrate: Int) -> Int {
        switch self {
        case .upgrade(let bitrate), .downgrade(let bitrate): return bitrate
        case .maintain: return currentBitrate
        }
    }
}

extension BitrateStrategy {
    /// Combines the three answers the way the seed's monitoring loop does: an upgrade is
    /// considered first, a downgrade only when no upgrade was offered, else the bitrate stays.
    public func decision(
        currentBitrate: Int,
        bufferHealth: Double,
        rebufferingRatio: Double,
        networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> BitrateDecision {
        if let up = shouldUpgrade(
            currentBitrate: currentBitrate,
            bufferHealth: bufferHealth,
            networkQuality: networkQuality,
            availableLevels: availableLevels
        ) {
            return .upgrade(to: up)
        }
        if let down = shouldDowngrade(
            currentBitrate: currentBitrate,
            rebufferingRatio: rebufferingRatio,
            networkQuality: networkQuality,
            availableLevels: availableLevels
        ) {
            return .downgrade(to: down)
        }
        return .maintain
    }
}
