import ABRLab
import Foundation

/// The state of reading a media playlist line by line: tags that apply to the next segment wait
/// here until its URI arrives.
struct HLSMediaPlaylistParser {
    let file: String
    private var targetDurationSeconds: Int?
    private var mediaSequence: Int?
    private var version: Int?
    private var segments: [HLSMediaSegment] = []
    private var dateRanges: [HLSDateRange] = []
    private var hasEndList = false
    private var initialization: HLSMediaInitialization?

    /// `EXTINF` waiting for its URI: line, duration, title.
    private var pendingInfo: (line: Int, durationSeconds: Double, title: String?)?
    /// `EXT-X-BYTERANGE` waiting for its URI: line, length, offset if written.
    private var pendingRange: (line: Int, lengthBytes: Int, offsetBytes: Int?)?
    private var pendingDate: Date?

    init(file: String) {
        self.file = file
    }

    mutating func read(_ line: HLSLine, number: Int) throws(InputError) {
        switch line {
        case .ignorable: return
        case .uri(let uri): try addSegment(uri: uri, line: number)
        case .tag(let name, let value): try readTag(HLSTagReader(file: file, line: number, tag: name, value: value))
        }
    }

    private mutating func readTag(_ reader: HLSTagReader) throws(InputError) {
        switch reader.tag {
        case "EXTINF":
            if let pendingInfo {
                throw reader.error("EXTINF follows the EXTINF of line \(pendingInfo.line) without a segment URI between them")
            }
            pendingInfo = try info(reader)
        case "EXT-X-TARGETDURATION":
            targetDurationSeconds = try reader.wholeNumber(reader.requiredValue(), what: "EXT-X-TARGETDURATION")
        case "EXT-X-MEDIA-SEQUENCE":
            guard segments.isEmpty, pendingInfo == nil else {
                throw reader.error("EXT-X-MEDIA-SEQUENCE must come before the first segment")
            }
            mediaSequence = try reader.wholeNumber(reader.requiredValue(), what: "EXT-X-MEDIA-SEQUENCE")
        case "EXT-X-VERSION":
            version = try reader.wholeNumber(reader.requiredValue(), what: "EXT-X-VERSION")
        case "EXT-X-BYTERANGE":
            let text = try reader.requiredValue()
            guard let parts = HLSByteRange.parts(text) else {
                throw reader.error("EXT-X-BYTERANGE '\(text)' is not LENGTH[@OFFSET] with a length > 0")
            }
            pendingRange = (reader.line, parts.lengthBytes, parts.offsetBytes)
        case "EXT-X-MAP":
            initialization = try map(reader)
        case "EXT-X-PROGRAM-DATE-TIME":
            pendingDate = try reader.date(String(reader.requiredValue()), what: "EXT-X-PROGRAM-DATE-TIME")
        case "EXT-X-DATERANGE":
            dateRanges.append(try HLSDateRange.parse(reader, segmentIndex: segments.count))
        case "EXT-X-ENDLIST":
            hasEndList = true
        case "EXT-X-STREAM-INF", "EXT-X-I-FRAME-STREAM-INF", "EXT-X-MEDIA":
            throw reader.error("\(reader.tag) belongs in a master playlist; this should be a media playlist")
        default:
            return
        }
    }

    /// `#EXTINF:<duration>,[<title>]`; the comma is optional, as many tools leave it out.
    private func info(_ reader: HLSTagReader) throws(InputError) -> (line: Int, durationSeconds: Double, title: String?) {
        let text = try reader.requiredValue()
        let comma = text.firstIndex(of: ",")
        let durationText = TextLines.trimmed(text[..<(comma ?? text.endIndex)])
        guard HLSAttributeList.isDecimalFloat(String(durationText)), let duration = Double(durationText), duration.isFinite else {
            throw reader.error("EXTINF duration '\(durationText)' is not a number of seconds")
        }
        guard duration >= 0 else { throw reader.error("EXTINF duration is \(durationText); it must be ≥ 0") }
        let title = comma.map { String(TextLines.trimmed(text[text.index(after: $0)...])) }
        return (reader.line, duration, title?.isEmpty == false ? title : nil)
    }

    private func map(_ reader: HLSTagReader) throws(InputError) -> HLSMediaInitialization {
        let attributes = try reader.attributes()
        let uri = try reader.requiredString(attributes, "URI")
        guard let rangeText = reader.string(attributes, "BYTERANGE") else { return HLSMediaInitialization(uri: uri) }
        guard let parts = HLSByteRange.parts(rangeText) else {
            throw reader.error("EXT-X-MAP BYTERANGE '\(rangeText)' is not LENGTH[@OFFSET] with a length > 0")
        }
        let byteRange = HLSByteRange(lengthBytes: parts.lengthBytes, offsetBytes: parts.offsetBytes ?? 0)
        return HLSMediaInitialization(uri: uri, byteRange: byteRange)
    }

    private mutating func addSegment(uri: String, line: Int) throws(InputError) {
        guard let info = pendingInfo else {
            throw InputError(file: file, line: line, "segment URI '\(uri)' has no EXTINF before it")
        }
        var byteRange: HLSByteRange?
        if let range = pendingRange {
            if let offset = range.offsetBytes {
                byteRange = HLSByteRange(lengthBytes: range.lengthBytes, offsetBytes: offset)
            } else {
                guard let previous = segments.last, previous.uri == uri, let previousRange = previous.byteRange else {
                    throw InputError(
                        file: file, line: range.line,
                        "EXT-X-BYTERANGE without @OFFSET continues the previous segment's range, "
                            + "but the previous segment is not a range of \(uri)"
                    )
                }
                byteRange = HLSByteRange(lengthBytes: range.lengthBytes, offsetBytes: previousRange.endBytes)
            }
        }
        segments.append(HLSMediaSegment(
            uri: uri, durationSeconds: info.durationSeconds, title: info.title,
            sequenceNumber: (mediaSequence ?? 0) + segments.count, byteRange: byteRange, initialization: initialization,
            programDateTime: pendingDate, line: line
        ))
        pendingInfo = nil
        pendingRange = nil
        pendingDate = nil
    }

    func finish() throws(InputError) -> HLSMediaPlaylist {
        if let pendingInfo { throw InputError(file: file, line: pendingInfo.line, "EXTINF has no segment URI after it") }
        if let pendingRange { throw InputError(file: file, line: pendingRange.line, "EXT-X-BYTERANGE has no segment URI after it") }
        guard let targetDurationSeconds else { throw InputError(file: file, "the media playlist has no EXT-X-TARGETDURATION") }
        return HLSMediaPlaylist(
            targetDurationSeconds: targetDurationSeconds, mediaSequence: mediaSequence ?? 0, version: version,
            segments: segments, dateRanges: dateRanges, hasEndList: hasEndList
        )
    }
}
