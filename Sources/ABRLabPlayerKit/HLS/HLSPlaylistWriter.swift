import ABRLab
import ABRLabFormats
import Foundation

/// Writes a session's played segments as one media playlist, with the format metadata the
/// seed's backend writes: at the first segment and at each format change, an
/// `EXT-X-PROGRAM-DATE-TIME` and an `EXT-X-DATERANGE` of class `com.tidal.format`.
///
/// Dates run on the media timeline: segment `i` is dated `startDate + i × segment duration`.
/// The DATERANGE keeps the backend's exact form (`ID`, `CLASS`, `START-DATE`,
/// `X-COM-TIDAL-FORMAT`, in that order) and the backend's `ID`, the format name, for the first
/// range of each format. RFC 8216 §4.3.2.7.1 forbids two ranges with one `ID` and different
/// attributes, which a format that returns would make, so its later ranges are numbered:
/// `HIGH`, `LOSSLESS`, `HIGH-2`. Clients read the format from `X-COM-TIDAL-FORMAT`, which keeps
/// the bare name. The written playlist is checked against `rfc8216Violations()` before it is
/// saved.
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
        var ids = HLSDateRangeIDs()
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
                if let change {
                    lines.append(Self.formatDateRangeLine(format: change.format, startDate: date, id: ids.next(for: change.format)))
                }
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

    /// Writes the playlist to `url`, replacing any file there, once it is known to follow RFC 8216.
    public func writeMediaPlaylist(video: Video, session: SessionResult, to url: URL) throws(InputError) {
        let text = mediaPlaylistText(video: video, session: session)
        let file = TextFile.displayName(url)
        let violations = try HLSMediaPlaylist.parse(text, file: file).rfc8216Violations()
        if let first = violations.first {
            throw InputError(file: file, "not written: the playlist would break RFC 8216: \(first)")
        }
        try TextFile.write(text, to: url)
    }

    /// The backend's tag: `#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="…",X-COM-TIDAL-FORMAT="HIGH"`;
    /// `id` defaults to the format name, as the backend writes it.
    public static func formatDateRangeLine(format: String, startDate: String, id: String? = nil) -> String {
        let attributes = HLSAttributeList([
            .init(name: "ID", value: .quoted(id ?? format)),
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

/// `EXT-X-DATERANGE` IDs for format ranges: the format's name the first time, then the name
/// and the range's ordinal among that format's ranges (`HIGH-2`), never an ID given before.
struct HLSDateRangeIDs {
    private var used: Set<String> = []
    private var rangesByFormat: [String: Int] = [:]

    mutating func next(for format: String) -> String {
        var ordinal = rangesByFormat[format, default: 0] + 1
        var id = ordinal == 1 ? format : "\(format)-\(ordinal)"
        while used.contains(id) {
            ordinal += 1
            id = "\(format)-\(ordinal)"
        }
        rangesByFormat[format] = ordinal
        used.insert(id)
        return id
    }
}
