import ABRLab

/// Videos abrlab knows by name, all constant-bitrate: every segment of a level is
/// `bitrate × duration / 8` bytes.
public enum VideoPreset: String, CaseIterable, Sendable {
    /// The seed's ladder, `BitrateLevel.standardLevels`: 360p at 500 kbps up to 4K at 15 Mbps.
    case standard
    /// A constant-bitrate stand-in with Pensieve's ladder, 300–4300 kbps in 4 s segments; not
    /// Pensieve's video, whose real VBR sizes are the `video_size_N` files `VideoLoader` reads
    /// from a folder (hence the name, which says CBR).
    case pensieveCBR = "pensieve-cbr"
    /// The ACM MMSys 2020 Twitch low-latency challenge's stream: 200, 600 and 1000 kbps in 0.5 s
    /// segments (each 15 chunks of 33.3 ms, one frame at 30 fps, on the `live` profile).
    case twitchLL = "twitch-ll"

    /// Pensieve's bitrates in kbps, lowest first, as in its simulator's `VIDEO_BIT_RATE`.
    public static let pensieveLadderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]
    /// Pensieve's ladder labelled by bitrate: `300k` … `4300k`.
    public static let pensieveLadder: [BitrateLevel] = pensieveLadderKbps.map {
        BitrateLevel(bitrate: Int($0) * 1000, label: VideoLoader.label(kbps: $0))
    }
    /// The Twitch low-latency challenge's ladder, kbps.
    public static let twitchLadderKbps: [Double] = [200, 600, 1000]
    /// Pensieve's chunk length, seconds.
    public static let pensieveSegmentDurationSeconds = 4.0

    /// Segments in Pensieve's video (`TOTAL_VIDEO_CHUNCK`), which a `pensieve` session plays.
    public static let pensieveSegmentCount = 48

    /// What keeps `video` from having Pensieve's shape — its six levels 300…4300 kbps, 4 s
    /// segments and at least 48 of them — or `nil` when it has it. The `pensieve` profile
    /// reproduces Pensieve's numbers only with such a video.
    public static func pensieveShapeProblem(of video: Video) -> String? {
        if video.bitratesKbps != pensieveLadderKbps {
            return "its ladder is \(VideoLoader.kbpsList(video.bitratesKbps)), not \(VideoLoader.kbpsList(pensieveLadderKbps))"
        }
        if video.segmentDurationSeconds != pensieveSegmentDurationSeconds {
            return "its segments last \(NumberText.plain(video.segmentDurationSeconds)) s, not 4 s"
        }
        if video.segmentCount < pensieveSegmentCount {
            return "it has \(video.segmentCount) segments, fewer than \(pensieveSegmentCount)"
        }
        return nil
    }

    /// Segment length of preset and CBR videos unless told otherwise: Pensieve's 4 s, a common
    /// DASH/HLS choice.
    public static let defaultSegmentDurationSeconds = 4.0
    /// Segments of preset and CBR videos unless told otherwise: the 48 chunks a Pensieve session
    /// plays, 192 s at 4 s each.
    public static let defaultSegmentCount = 48

    public var ladder: [BitrateLevel] {
        switch self {
        case .standard: BitrateLevel.standardLevels
        case .pensieveCBR: VideoPreset.pensieveLadder
        case .twitchLL: VideoPreset.twitchLadderKbps.map { BitrateLevel(bitrate: Int($0) * 1000, label: VideoLoader.label(kbps: $0)) }
        }
    }

    public var segmentDurationSeconds: Double {
        switch self {
        case .standard: VideoPreset.defaultSegmentDurationSeconds
        case .pensieveCBR: VideoPreset.pensieveSegmentDurationSeconds
        case .twitchLL: 0.5
        }
    }

    /// The preset as a CBR video named after it.
    public func video(
        segmentCount: Int = VideoPreset.defaultSegmentCount, segmentDurationSeconds: Double? = nil
    ) throws(InputError) -> Video {
        try Video(
            name: rawValue, segmentDurationSeconds: segmentDurationSeconds ?? self.segmentDurationSeconds,
            ladder: ladder, segmentCount: segmentCount
        )
    }
}
