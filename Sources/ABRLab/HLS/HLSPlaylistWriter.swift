import Foundation

/// Writes a session's played segments as one media playlist, with the format metadata the
/// seed's backend writes: at the first segment and at each format change, an
/// `EXT-X-PROGRAM-DATE-TIME` and an `EXT-X-DATERANGE` of class `com.tidal.format`.
///
/// Dates run on the media timeline: segment `i` is dated `startDate + i × segment duration`.
/// The DATERANGE keeps the backend's exact form, `ID` being the format name, even though a
/// format that returns repeats an `ID` with another `START-DATE`.
public struct HLSPlaylistWriter: Sendable {
    /// The seed's example start, so exported playlists are reproducible unless told otherwise.
    public static let defaultStartDate = Date(timeIntervalSince1970: 1_761_733_800)
    /// Where a segment lives; see `segmentURITemplate`.
    public static let defaultSegmentURITemplate = "{label}/segment_{index}.m4s"

    /// Program date of the first segment.
    public var startDate: Date
    /// A segment's URI, with `{index}` and `{level}` (both 1-based, as in every output of
    /// abrlab), `{label}` and `{format}` (the label when the level has none) replaced.
    public var segmentURITemplate: String

    public init(
        startDate: Date = HLSPlaylistWriter.defaultStartDate,
        segmentURITemplate: String = HLSPlaylistWriter.defaultSegmentURITemplate
    ) {
        self.startDate = startDate
        self.segmentURITemplate = segmentURITemplate
    }

    /// The playlist text for `segments` of `video`, in the order given.
    public func mediaPlaylistText(video: Video, segments: [SegmentRecord]) -> String {
        let durationSeconds = video.segmentDurationSeconds
        let changes = Dictionary(
            FormatTimeline.changes(video: video, segments: segments).map { ($0.segmentIndex, $0) }
        ) { first, _ in first }
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:3",
            "#EXT-X-TARGETDURATION:\(max(1, Int(durationSeconds.rounded())))",
            "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD",
        ]
        for (position, segment) in segments.enumerated() {
            let change = changes[segment.index]
            if position == 0 || change != nil {
                let date = HLSDateTime.format(startDate.addingTimeInterval(Double(segment.index) * durationSeconds))
                lines.append("#EXT-X-PROGRAM-DATE-TIME:\(date)")
                if let change { lines.append(Self.formatDateRangeLine(format: change.format, startDate: date)) }
            }
            lines.append("#EXTINF:\(NumberText.plain(durationSeconds)),")
            lines.append(segmentURI(segment, video: video))
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    public func mediaPlaylistText(video: Video, session: SessionResult) -> String {
        mediaPlaylistText(video: video, segments: session.segments)
    }

    /// Writes the playlist to `url`, replacing any file there.
    public func writeMediaPlaylist(video: Video, session: SessionResult, to url: URL) throws(InputError) {
        try TextFile.write(mediaPlaylistText(video: video, session: session), to: url)
    }

    /// The backend's tag: `#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="…",X-COM-TIDAL-FORMAT="HIGH"`.
    public static func formatDateRangeLine(format: String, startDate: String) -> String {
        let attributes = HLSAttributeList([
            .init(name: "ID", value: .quoted(format)),
            .init(name: "CLASS", value: .quoted(HLSDateRange.formatClass)),
            .init(name: "START-DATE", value: .quoted(startDate)),
            .init(name: HLSDateRange.formatAttribute, value: .quoted(format)),
        ])
        return "#EXT-X-DATERANGE:" + attributes.formatted
    }

    func segmentURI(_ segment: SegmentRecord, video: Video) -> String {
        let label = video.ladder.indices.contains(segment.level) ? video.ladder[segment.level].label : String(segment.level)
        let format = video.formats.indices.contains(segment.level) ? video.formats[segment.level] ?? label : label
        return segmentURITemplate
            .replacingOccurrences(of: "{index}", with: String(segment.index + 1))
            .replacingOccurrences(of: "{level}", with: String(segment.level + 1))
            .replacingOccurrences(of: "{label}", with: label)
            .replacingOccurrences(of: "{format}", with: format)
    }
}
