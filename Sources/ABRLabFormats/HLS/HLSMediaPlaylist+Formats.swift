import ABRLab

extension HLSMediaPlaylist {
    /// Every format tag (`CLASS="com.tidal.format"`) in playlist order, repeats included.
    ///
    /// Each is stamped with its `START-DATE` placed on the playlist's timeline through
    /// `EXT-X-PROGRAM-DATE-TIME` (see `mediaSeconds(of:)`); without a program date, with the
    /// start of the segment the tag stands before.
    public var formatVariants: [FormatVariantMetadata] {
        dateRanges.compactMap { range in
            range.formatString.map { format in
                FormatVariantMetadata(
                    formatString: format,
                    timestampSeconds: mediaSeconds(of: range.startDate) ?? mediaStartSeconds(ofSegment: range.segmentIndex)
                )
            }
        }
    }

    /// The formats the playlist announces, each once, in order of appearance.
    public var distinctFormats: [String] {
        var seen: Set<String> = []
        return formatVariants.map(\.formatString).filter { seen.insert($0).inserted }
    }
}
