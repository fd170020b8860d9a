/// The seed's default strategy: smooth playback first, quality second.
///
/// - Starts low on weak networks and at the top only on excellent ones.
/// - Steps up one level at a time, only on a good or better network with a healthy buffer.
/// - Steps down one level when the rebuffering ratio reaches its threshold or the network is poor.
///
/// The seed's prose says a `.good` network starts at 720p, but its code picks index
/// `count * 2 / 3`, which is 1080p on ``BitrateLevel/standardLevels``; this type follows the code.
/// An empty ladder has no bitrate to offer: `initialBitrate` returns 0 and no switch is proposed.
public struct ConservativeBitrateStrategy: BitrateStrategy, Sendable, Equatable {
    /// Buffer health (fraction of target) needed before an upgrade; seed default 0.7.
    public let bufferHealthThreshold: Double
    /// Rebuffering ratio at which a downgrade is forced; seed default 0.05.
    public let rebufferingThreshold: Double

    public init(bufferHealthThreshold: Double = 0.7, rebufferingThreshold: Double = 0.05) {
        self.bufferHealthThreshold = bufferHealthThreshold
        self.rebufferingThreshold = rebufferingThreshold
    }

    public func initialBitrate(for networkQuality: NetworkQuality, availableLevels: [BitrateLevel]) -> Int {
        let sorted = availableLevels.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index: Int
        switch networkQuality {
        case .offline, .poor: index = 0
        case .fair: index = sorted.count / 3
        case .good: index = sorted.count * 2 / 3
        case .excellent: index = sorted.count - 1
        }
        return sorted[index].bitrate
    }

    public func shouldUpgrade(
        currentBitrate: Int,
        bufferHealth: Double,
        networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> Int? {
        guard networkQuality >= .good, bufferHealth >= bufferHealthThreshold else { return nil }
        let sorted = availableLevels.sorted()
        guard let current = Self.indexAtOrAbove(currentBitrate, in: sorted), current + 1 < sorted.count else {
            return nil
        }
        return sorted[current + 1].bitrate
    }

    public func shouldDowngrade(
        currentBitrate: Int,
        rebufferingRatio: Double,
        networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> Int? {
        let sorted = availableLevels.sorted()
        guard let current = Self.indexAtOrAbove(currentBitrate, in: sorted), current > 0 else { return nil }
        guard rebufferingRatio >= rebufferingThreshold || networkQuality <= .poor else { return nil }
        return sorted[current - 1].bitrate
    }

    /// The first level whose bitrate is at least `bitrate`: a bitrate between two levels counts
    /// as the upper one, and one above the ladder has no index (so it never switches).
    private static func indexAtOrAbove(_ bitrate: Int, in sorted: [BitrateLevel]) -> Int? {
        sorted.firstIndex { $0.bitrate >= bitrate }
    }
}
