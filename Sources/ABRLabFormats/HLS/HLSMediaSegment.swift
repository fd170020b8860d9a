import ABRLab
import Foundation

/// One media segment of a media playlist: its `EXTINF` and the tags that apply to it.
public struct HLSMediaSegment: Equatable, Sendable {
    /// The URI as written, relative to the media playlist.
    public var uri: String
    /// `EXTINF` duration.
    public var durationSeconds: Double
    /// `EXTINF` title; nil when empty.
    public var title: String?
    /// Media sequence number: `EXT-X-MEDIA-SEQUENCE` plus the segment's position.
    public var sequenceNumber: Int
    public var byteRange: HLSByteRange?
    /// The `EXT-X-MAP` in effect for this segment.
    public var initialization: HLSMediaInitialization?
    /// `EXT-X-PROGRAM-DATE-TIME` when the tag stands before this segment; dates of the
    /// following segments are derived by `HLSMediaPlaylist.programDate(ofSegment:)`.
    public var programDateTime: Date?
    /// Line of the segment's URI.
    public var line: Int

    public init(
        uri: String, durationSeconds: Double, title: String? = nil, sequenceNumber: Int, byteRange: HLSByteRange? = nil,
        initialization: HLSMediaInitialization? = nil, programDateTime: Date? = nil, line: Int = 0
    ) {
        self.uri = uri
        self.durationSeconds = durationSeconds
        self.title = title
        self.sequenceNumber = sequenceNumber
        self.byteRange = byteRange
        self.initialization = initialization
        self.programDateTime = programDateTime
        self.line = line
    }
}
