import ABRLab
import ABRLabFormats

/// Reports format variant changes, once each (seed 003): a report with the same format as the
/// last one is ignored, whatever its time.
///
/// Feed it metadata or `EXT-X-DATERANGE` tags in timeline order. Each call returns the change it
/// caused, if any, and passes it to `onChange`; the seed's delegate callback becomes that closure.
public struct FormatVariantMonitor: Sendable {
    public private(set) var lastReported: FormatVariantMetadata?
    public var onChange: (@Sendable (FormatVariantMetadata) -> Void)?

    public init(onChange: (@Sendable (FormatVariantMetadata) -> Void)? = nil) {
        self.onChange = onChange
    }

    /// Returns `metadata` when its format differs from the last reported one, nil otherwise.
    @discardableResult
    public mutating func observe(_ metadata: FormatVariantMetadata) -> FormatVariantMetadata? {
        guard metadata.formatString != lastReported?.formatString else { return nil }
        lastReported = metadata
        onChange?(metadata)
        return metadata
    }

    /// Observes a date range if it is format metadata; other classes are ignored.
    @discardableResult
    public mutating func observe(_ dateRange: HLSDateRange, timestampSeconds: Double) -> FormatVariantMetadata? {
        guard let format = dateRange.formatString else { return nil }
        return observe(FormatVariantMetadata(formatString: format, timestampSeconds: timestampSeconds))
    }

    /// The changes among `reports`, in order.
    public mutating func changes(in reports: some Sequence<FormatVariantMetadata>) -> [FormatVariantMetadata] {
        reports.compactMap { observe($0) }
    }

    /// Forgets the last report, as when a new item starts playing.
    public mutating func reset() {
        lastReported = nil
    }
}
