import ABRLab
import Foundation

/// A master (multivariant) playlist: the variants a player chooses between.
///
/// Only `EXT-X-STREAM-INF` is interpreted; other tags (`EXT-X-MEDIA`, `EXT-X-I-FRAME-STREAM-INF`,
/// session data) are skipped. Media-playlist tags make it an error, so a media playlist given
/// where a master one is expected is reported as such.
public struct HLSMasterPlaylist: Equatable, Sendable {
    /// Variants in the order the playlist lists them.
    public var variants: [HLSVariantStream]

    public init(variants: [HLSVariantStream]) {
        self.variants = variants
    }

    public static func load(_ url: URL) throws(InputError) -> HLSMasterPlaylist {
        try parse(TextFile.read(url), file: TextFile.displayName(url))
    }

    /// Parses playlist text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(InputError) -> HLSMasterPlaylist {
        var variants: [HLSVariantStream] = []
        var pending: (reader: HLSTagReader, attributes: HLSAttributeList)?
        for (number, line) in try HLSLine.lines(of: text, file: file) {
            switch line {
            case .ignorable:
                continue
            case .uri(let uri):
                guard let stream = pending else {
                    throw InputError(file: file, line: number, "URI '\(uri)' has no EXT-X-STREAM-INF before it")
                }
                variants.append(try variant(stream.reader, stream.attributes, uri: uri))
                pending = nil
            case .tag(let name, let value):
                let reader = HLSTagReader(file: file, line: number, tag: name, value: value)
                switch name {
                case "EXT-X-STREAM-INF":
                    if let stream = pending { throw stream.reader.error("EXT-X-STREAM-INF has no URI line after it") }
                    pending = (reader, try reader.attributes())
                case "EXTINF", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-BYTERANGE", "EXT-X-ENDLIST":
                    throw reader.error(
                        "\(name) belongs in a media playlist; this should be a master playlist listing EXT-X-STREAM-INF variants"
                    )
                default:
                    continue
                }
            }
        }
        if let stream = pending { throw stream.reader.error("EXT-X-STREAM-INF has no URI line after it") }
        guard !variants.isEmpty else { throw InputError(file: file, "the master playlist lists no variants (EXT-X-STREAM-INF)") }
        return HLSMasterPlaylist(variants: variants)
    }

    private static func variant(
        _ reader: HLSTagReader, _ attributes: HLSAttributeList, uri: String
    ) throws(InputError) -> HLSVariantStream {
        guard let bandwidth = try reader.integer(attributes, "BANDWIDTH") else { throw reader.error("EXT-X-STREAM-INF needs BANDWIDTH") }
        guard bandwidth > 0 else { throw reader.error("EXT-X-STREAM-INF BANDWIDTH must be > 0") }
        let average = try reader.integer(attributes, "AVERAGE-BANDWIDTH")
        if let average, average <= 0 { throw reader.error("EXT-X-STREAM-INF AVERAGE-BANDWIDTH must be > 0") }
        var resolution: HLSResolution?
        if let value = attributes["RESOLUTION"] {
            guard let parsed = value.resolution else {
                throw reader.error("EXT-X-STREAM-INF RESOLUTION '\(value.text)' is not WIDTHxHEIGHT, e.g. 1280x720")
            }
            resolution = parsed
        }
        let codecs = reader.string(attributes, "CODECS").map {
            $0.split(separator: ",").map { String(TextLines.trimmed($0)) }.filter { !$0.isEmpty }
        } ?? []
        return HLSVariantStream(
            bandwidthBitsPerSecond: bandwidth, averageBandwidthBitsPerSecond: average, resolution: resolution,
            codecs: codecs, uri: uri, attributes: attributes, line: reader.line
        )
    }
}
