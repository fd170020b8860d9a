import ABRLab

/// A video read from a DASH MPD, with what looked odd while reading it and how its segments
/// were addressed (recorded by `abrlab videos import`).
public struct MPDLoadedVideo: Equatable, Sendable {
    public var video: Video
    /// Ignored Adaptation Sets and similar notes.
    public var warnings: [InputWarning]
    /// `SegmentList`, `SegmentBase` or `SegmentTemplate`, by Representation in ladder order.
    public var addressing: [String]
    /// Each level's Representation `@id`, lowest first.
    public var representationIDs: [String]

    public init(video: Video, warnings: [InputWarning], addressing: [String], representationIDs: [String]) {
        self.video = video
        self.warnings = warnings
        self.addressing = addressing
        self.representationIDs = representationIDs
    }
}
