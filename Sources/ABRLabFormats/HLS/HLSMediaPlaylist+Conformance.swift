import ABRLab
import Foundation

extension HLSMediaPlaylist {
    /// The rules of RFC 8216 (HTTP Live Streaming) this playlist breaks, one line each naming
    /// the section, in playlist order; empty when it follows every rule checked. The parser
    /// already refuses malformed tags, dates and END-DATEs before START-DATEs; this checks the
    /// rules between tags:
    ///
    /// - §4.3.3.1: each `EXTINF` duration, rounded to the nearest integer, is at most
    ///   `EXT-X-TARGETDURATION`.
    /// - §7: the `EXT-X-VERSION` (1 when absent) covers the features used: 3 for
    ///   non-integer durations, 4 for `EXT-X-BYTERANGE`, 5 for `EXT-X-MAP`.
    /// - §4.3.2.7: a playlist with `EXT-X-DATERANGE` has an `EXT-X-PROGRAM-DATE-TIME`.
    /// - §4.3.2.7.1: ranges that share an `ID` give every attribute they both carry the same
    ///   value, and a range with both `END-DATE` and `DURATION` ends at `START-DATE + DURATION`.
    public func rfc8216Violations() -> [String] {
        var violations: [String] = []
        let version = self.version ?? 1
        for segment in segments {
            let rounded = segment.durationSeconds.rounded(.toNearestOrAwayFromZero)
            if rounded > Double(targetDurationSeconds) {
                violations.append(
                    "line \(segment.line): EXTINF \(NumberText.plain(segment.durationSeconds)) rounds to more than "
                        + "EXT-X-TARGETDURATION \(targetDurationSeconds) (§4.3.3.1)"
                )
            }
        }
        let required: [(needed: Int, what: String, line: Int?)] = [
            (3, "non-integer EXTINF durations", segments.first { $0.durationSeconds.rounded() != $0.durationSeconds }?.line),
            (4, "EXT-X-BYTERANGE", segments.first { $0.byteRange != nil }?.line),
            (5, "EXT-X-MAP", segments.first { $0.initialization != nil }?.line),
        ]
        for rule in required where version < rule.needed {
            if let line = rule.line {
                violations.append("line \(line): \(rule.what) need EXT-X-VERSION \(rule.needed) or later, not \(version) (§7)")
            }
        }
        if let first = dateRanges.first, !segments.contains(where: { $0.programDateTime != nil }) {
            violations.append("line \(first.line): EXT-X-DATERANGE in a playlist without EXT-X-PROGRAM-DATE-TIME (§4.3.2.7)")
        }
        var firstRangeByID: [String: HLSDateRange] = [:]
        for range in dateRanges {
            if let endDate = range.endDate, let duration = range.durationSeconds,
               abs(endDate.timeIntervalSince(range.startDate) - duration) > 0.0005 {
                violations.append(
                    "line \(range.line): EXT-X-DATERANGE \"\(range.id)\" has END-DATE \(HLSDateTime.format(endDate)), "
                        + "not START-DATE + DURATION \(NumberText.plain(duration)) s (§4.3.2.7.1)"
                )
            }
            guard let earlier = firstRangeByID[range.id] else {
                firstRangeByID[range.id] = range
                continue
            }
            for attribute in range.attributes.attributes {
                guard let value = earlier.attributes[attribute.name], value != attribute.value else { continue }
                violations.append(
                    "line \(range.line): EXT-X-DATERANGE ID \"\(range.id)\" of line \(earlier.line) comes again with "
                        + "\(attribute.name)=\(attribute.value.formatted) instead of \(value.formatted) (§4.3.2.7.1)"
                )
                break
            }
        }
        return violations
    }
}
