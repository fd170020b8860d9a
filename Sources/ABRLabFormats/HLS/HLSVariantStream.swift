import ABRLab

/// One `EXT-X-STREAM-INF` entry of a master playlist and the URI on the line after it.
public struct HLSVariantStream: Equatable, Sendable {
    /// `BANDWIDTH`: the variant's peak bit rate, bits per second.
    public var bandwidthBitsPerSecond: Int
    /// `AVERAGE-BANDWIDTH`, bits per second, when given.
    public var averageBandwidthBitsPerSecond: Int?
    public var resolution: HLSResolution?
    /// `CODECS` split at its commas, e.g. `["avc1.4d401f", "mp4a.40.2"]`; empty when absent.
    public var codecs: [String]
    /// The media playlist's URI as written, relative to the master playlist.
    public var uri: String
    /// Every attribute of the tag, including those abrlab does not interpret.
    public var attributes: HLSAttributeList
    /// Line of the `EXT-X-STREAM-INF` tag.
    public var line: Int

    public init(
        bandwidthBitsPerSecond: Int, averageBandwidthBitsPerSecond: Int? = nil, resolution: HLSResolution? = nil,
        codecs: [String] = [], uri: String, attributes: HLSAttributeList = HLSAttributeList([]), line: Int = 0
    ) {
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.averageBandwidthBitsPerSecond = averageBandwidthBitsPerSecond
        self.resolution = resolution
        self.codecs = codecs
        self.uri = uri
        self.attributes = attributes
        self.line = line
    }
}
