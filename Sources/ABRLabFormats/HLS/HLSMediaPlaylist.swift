import ABRLab
import Foundation

/// A media playlist: the segments of one variant and the timed metadata between them.
public struct HLSMediaPlaylist: Equatable, Sendable {
    /// `EXT-X-TARGETDURATION`.
    public var targetDurationSeconds: Int
    /// `EXT-X-MEDIA-SEQUENCE`; 0 when absent.
    public var mediaSequence: Int
    /// `EXT-X-VERSION` when given.
    public var version: Int?
    public var segments: [HLSMediaSegment]
    /// `EXT-X-DATERANGE` tags in playlist order.
    public var dateRanges: [HLSDateRange]
    /// Whether `EXT-X-ENDLIST` closes the playlist (no more segments will be added).
    public var hasEndList: Bool

    public init(
        targetDurationSeconds: Int, mediaSequence: Int = 0, version: Int? = nil, segments: [HLSMediaSegment],
        dateRanges: [HLSDateRange] = [], hasEndList: Bool = false
    ) {
        self.targetDurationSeconds = targetDurationSeconds
        self.mediaSequence = mediaSequence
        self.version = version
        self.segments = segments
        self.dateRanges = dateRanges
        self.hasEndList = hasEndList
    }

    public static func load(_ url: URL) throws(InputError) -> HLSMediaPlaylist {
        try parse(TextFile.read(url), file: TextFile.displayName(url))
    }

    /// Parses playlist text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(InputError) -> HLSMediaPlaylist {
        var parser = HLSMediaPlaylistParser(file: file)
        for (number, line) in try HLSLine.lines(of: text, file: file) {
            try parser.read(line, number: number)
        }
        return try parser.finish()
    }

    /// Sum of the `EXTINF` durations.
    public var durationSeconds: Double { segments.reduce(0) { $0 + $1.durationSeconds } }

    /// Where a segment starts on the playlist's timeline: the durations of the segments before
    /// it. `index` may be `segments.count`, the end of the playlist.
    public func mediaStartSeconds(ofSegment index: Int) -> Double {
        segments.prefix(max(0, index)).reduce(0) { $0 + $1.durationSeconds }
    }

    /// The date of a segment: its own `EXT-X-PROGRAM-DATE-TIME`, else the nearest earlier one
    /// plus the durations in between; nil when no earlier segment has a date.
    public func programDate(ofSegment index: Int) -> Date? {
        guard segments.indices.contains(index) else { return nil }
        var secondsAfter = 0.0
        for earlier in stride(from: index, through: 0, by: -1) {
            if let date = segments[earlier].programDateTime { return date.addingTimeInterval(secondsAfter) }
            if earlier > 0 { secondsAfter += segments[earlier - 1].durationSeconds }
        }
        return nil
    }

    /// Where `date` falls on the playlist's timeline, anchored at the first segment with an
    /// `EXT-X-PROGRAM-DATE-TIME`; nil when no segment has one. Rounded to microseconds, below
    /// which a `Date` near the present holds no real digits.
    public func mediaSeconds(of date: Date) -> Double? {
        guard let anchor = segments.firstIndex(where: { $0.programDateTime != nil }),
              let anchorDate = segments[anchor].programDateTime else { return nil }
        let seconds = mediaStartSeconds(ofSegment: anchor) + date.timeIntervalSince(anchorDate)
        return (seconds * 1_000_000).rounded() / 1_000_000
    }
}
