import ABRLab
import ABRLabFormats

/// Inputs for live-profile tests: the Twitch challenge's ladder and links in its units.
enum LiveFixtures {
    /// The `twitch-ll` preset: 200, 600, 1000 kbps in 0.5 s segments (repeated as long as a session needs).
    static func video() throws -> Video {
        try VideoPreset.twitchLL.video(segmentCount: 4)
    }

    /// A trace of (speed, seconds) periods in the challenge's units: speed · 1024 bit/s.
    static func trace(_ periods: [(speed: Double, seconds: Double)], name: String = "pattern") throws -> NetworkTrace {
        try NetworkTrace(name: name, periods: periods.map { TracePeriod(durationSeconds: $0.seconds, bandwidthBitsPerSecond: $0.speed * 1024) })
    }

    static func run(_ strategy: some SessionStrategy, trace: NetworkTrace, durationSeconds: Double? = nil) throws -> SessionResult {
        var profile = EmulationProfile.live
        profile.mechanics = .live(LiveSettings(durationSeconds: durationSeconds))
        var strategy = strategy
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: "test", trace: trace, video: video())
    }
}

/// Remembers the contexts and records it saw while playing a fixed level.
struct RecordingStrategy: SessionStrategy {
    var level: Int
    var contexts: [DecisionContext] = []
    var records: [DownloadRecord] = []
    /// The chunks of each download, from the context `didDownload` receives.
    var chunks: [[ChunkRecord]] = []

    init(level: Int) { self.level = level }

    mutating func chooseLevel(_ context: DecisionContext) -> Int {
        contexts.append(context)
        return level
    }

    mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        records.append(record)
        chunks.append(context.live?.lastChunks ?? [])
    }
}
