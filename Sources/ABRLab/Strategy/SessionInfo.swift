/// What a strategy learns once, before a session's first decision.
public struct SessionInfo: Sendable {
    public let video: Video
    /// Segments this session plays (may be fewer than the video has sizes for).
    public let segmentCount: Int
    public let traceName: String
    public let profileName: String
    /// Seed for any randomness the strategy uses; the same seed must give the same session.
    public let seed: UInt64
    /// Buffer the player aims for; the player never holds much more.
    public let maxBufferSeconds: Double
    /// The live encoder and player on the `live` profile; `nil` on demand.
    public let live: LiveSettings?
    /// Whose scheduler plays the segment buffer (dash.js's on the `dashjs` profile); `nil` where the profile's player
    /// is not the segment buffer.
    public let segmentBufferPlayer: SegmentBufferPlayer?

    public init(
        video: Video, segmentCount: Int, traceName: String, profileName: String, seed: UInt64, maxBufferSeconds: Double,
        live: LiveSettings? = nil, segmentBufferPlayer: SegmentBufferPlayer? = nil
    ) {
        self.video = video
        self.segmentCount = segmentCount
        self.traceName = traceName
        self.profileName = profileName
        self.seed = seed
        self.maxBufferSeconds = maxBufferSeconds
        self.live = live
        self.segmentBufferPlayer = segmentBufferPlayer
    }

    public var levelsKbps: [Double] { video.bitratesKbps }
}
