/// The seed's strategy protocol: three questions a player asks about its bitrate.
///
/// Bitrates are in bits per second. `bufferHealth` is the buffer's fill as a fraction of its
/// target (0…1, may exceed 1), `rebufferingRatio` is stall time over playback time.
/// The emulator runs conforming types through ``BitrateStrategySession``.
public protocol BitrateStrategy: Sendable {
    /// The bitrate to start with, chosen from the network quality alone.
    func initialBitrate(
        for networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> Int

    /// The next higher bitrate when an upgrade is warranted, else `nil`.
    func shouldUpgrade(
        currentBitrate: Int,
        bufferHealth: Double,
        networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> Int?

    /// The next lower bitrate when a downgrade is warranted, else `nil`.
    func shouldDowngrade(
        currentBitrate: Int,
        rebufferingRatio: Double,
        networkQuality: NetworkQuality,
        availableLevels: [BitrateLevel]
    ) -> Int?
}
