/// What a strategy can know about a run before any of its sessions: the video and how it is
/// played, with nothing about a trace.
public struct RunSetting: Sendable {
    public let video: Video
    /// Segments a session plays (on `live`, the count for the profile's default duration).
    public let segmentCount: Int
    public let profileName: String
    public let maxBufferSeconds: Double
    /// The live encoder and player on the `live` profile; `nil` on demand.
    public let live: LiveSettings?

    public init(video: Video, segmentCount: Int, profileName: String, maxBufferSeconds: Double, live: LiveSettings? = nil) {
        self.video = video
        self.segmentCount = segmentCount
        self.profileName = profileName
        self.maxBufferSeconds = maxBufferSeconds
        self.live = live
    }

    /// The setting `emulator` plays `video` in.
    public init(emulator: SessionEmulator, video: Video) {
        self.init(
            video: video, segmentCount: emulator.segmentCount(for: video), profileName: emulator.profile.name,
            maxBufferSeconds: emulator.profile.maxBufferSeconds, live: emulator.profile.liveSettings
        )
    }
}
