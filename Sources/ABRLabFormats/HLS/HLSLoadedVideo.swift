import ABRLab

/// A video read from HLS playlists, with the playlists and what looked wrong while reading them.
public struct HLSLoadedVideo: Equatable, Sendable {
    public var video: Video
    /// Estimated sizes, unequal segment counts, varying durations and similar doubts.
    public var warnings: [InputWarning]
    public var master: HLSMasterPlaylist
    /// The variants in ladder order (ascending bandwidth), one per level.
    public var variants: [HLSVariantStream]
    /// The media playlists in ladder order, one per level.
    public var mediaPlaylists: [HLSMediaPlaylist]

    public init(
        video: Video, warnings: [InputWarning], master: HLSMasterPlaylist, variants: [HLSVariantStream],
        mediaPlaylists: [HLSMediaPlaylist]
    ) {
        self.video = video
        self.warnings = warnings
        self.master = master
        self.variants = variants
        self.mediaPlaylists = mediaPlaylists
    }
}
