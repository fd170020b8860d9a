import ABRLab
import ABRLabFormats

/// The format changes of a played session: its segments' levels run through a
/// `FormatVariantMonitor`, so each change is reported once.
public enum FormatTimeline {
    /// A segment whose format differs from the previously reported one.
    public struct Change: Equatable, Sendable {
        /// 0-based index of the first segment in the new format.
        public var segmentIndex: Int
        public var level: Int
        public var format: String
        /// Where the segment starts in the content: `segmentIndex × segment duration`.
        public var mediaSeconds: Double
        /// Session time when the segment arrived (its `downloadEndSeconds`), when the player
        /// first holds the new format.
        public var arrivalSeconds: Double

        public init(segmentIndex: Int, level: Int, format: String, mediaSeconds: Double, arrivalSeconds: Double) {
            self.segmentIndex = segmentIndex
            self.level = level
            self.format = format
            self.mediaSeconds = mediaSeconds
            self.arrivalSeconds = arrivalSeconds
        }

        /// The change as the monitor reports it, stamped on the media timeline.
        public var metadata: FormatVariantMetadata {
            FormatVariantMetadata(formatString: format, timestampSeconds: mediaSeconds)
        }
    }

    /// Changes in segment order. Segments whose level has no format (or lies outside the video's
    /// ladder) report nothing, so the format in effect carries over them.
    public static func changes(video: Video, segments: [SegmentRecord]) -> [Change] {
        var monitor = FormatVariantMonitor()
        var changes: [Change] = []
        for segment in segments {
            guard video.formats.indices.contains(segment.level), let format = video.formats[segment.level] else { continue }
            let mediaSeconds = Double(segment.index) * video.segmentDurationSeconds
            guard monitor.observe(FormatVariantMetadata(formatString: format, timestampSeconds: mediaSeconds)) != nil else { continue }
            changes.append(Change(
                segmentIndex: segment.index, level: segment.level, format: format,
                mediaSeconds: mediaSeconds, arrivalSeconds: segment.downloadEndSeconds
            ))
        }
        return changes
    }

    public static func changes(video: Video, session: SessionResult) -> [Change] {
        changes(video: video, segments: session.segments)
    }
}
