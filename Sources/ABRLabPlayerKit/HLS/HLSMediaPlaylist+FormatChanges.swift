import ABRLab
import ABRLabFormats

extension HLSMediaPlaylist {
    /// The format changes a `FormatVariantMonitor` reports for this playlist.
    public var formatChanges: [FormatVariantMetadata] {
        var monitor = FormatVariantMonitor()
        return monitor.changes(in: formatVariants)
    }
}
