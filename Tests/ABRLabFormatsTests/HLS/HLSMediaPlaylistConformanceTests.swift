import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSMediaPlaylistConformanceTests {
    static func playlist(_ lines: [String]) throws -> HLSMediaPlaylist {
        try HLSMediaPlaylist.parse((["#EXTM3U"] + lines).joined(separator: "\n") + "\n", file: "p.m3u8")
    }

    static let dated = "#EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:00.000Z"

    @Test func theSeedsExampleConforms() throws {
        let playlist = try Self.playlist([
            "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", Self.dated,
            #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00.000Z",X-COM-TIDAL-FORMAT="HIGH""#,
            "#EXTINF:4,", "a.m4s", "#EXTINF:3.5,", "b.m4s",
            #"#EXT-X-DATERANGE:ID="LOSSLESS",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:08.000Z",END-DATE="2025-10-29T10:30:10.500Z",DURATION=2.5"#,
            "#EXTINF:4,", "c.m4s",
        ])
        #expect(playlist.rfc8216Violations() == [])
    }

    @Test(arguments: [
        (["#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXTINF:4.5,", "a.m4s"],
         "line 5: EXTINF 4.5 rounds to more than EXT-X-TARGETDURATION 4 (§4.3.3.1)"),
        (["#EXT-X-TARGETDURATION:4", "#EXTINF:3.5,", "a.m4s"],
         "line 4: non-integer EXTINF durations need EXT-X-VERSION 3 or later, not 1 (§7)"),
        (["#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-BYTERANGE:100@0", "#EXTINF:4,", "a.m4s"],
         "line 6: EXT-X-BYTERANGE need EXT-X-VERSION 4 or later, not 3 (§7)"),
        (["#EXT-X-VERSION:4", "#EXT-X-TARGETDURATION:4", #"#EXT-X-MAP:URI="init.mp4""#, "#EXTINF:4,", "a.m4s"],
         "line 6: EXT-X-MAP need EXT-X-VERSION 5 or later, not 4 (§7)"),
        (["#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4",
          #"#EXT-X-DATERANGE:ID="a",START-DATE="2025-10-29T10:30:00.000Z""#, "#EXTINF:4,", "a.m4s"],
         "line 4: EXT-X-DATERANGE in a playlist without EXT-X-PROGRAM-DATE-TIME (§4.3.2.7)"),
        (["#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", dated,
          #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00.000Z""#, "#EXTINF:4,", "a.m4s",
          #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:04.000Z""#, "#EXTINF:4,", "b.m4s"],
         #"line 8: EXT-X-DATERANGE ID "HIGH" of line 5 comes again with START-DATE="2025-10-29T10:30:04.000Z" instead of "2025-10-29T10:30:00.000Z" (§4.3.2.7.1)"#),
        (["#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", dated,
          #"#EXT-X-DATERANGE:ID="ad",START-DATE="2025-10-29T10:30:00.000Z",END-DATE="2025-10-29T10:30:05.000Z",DURATION=4"#,
          "#EXTINF:4,", "a.m4s"],
         #"line 5: EXT-X-DATERANGE "ad" has END-DATE 2025-10-29T10:30:05.000Z, not START-DATE + DURATION 4 s (§4.3.2.7.1)"#),
    ])
    func reportsEachBrokenRule(lines: [String], violation: String) throws {
        let found = try Self.playlist(lines).rfc8216Violations()
        #expect(found == [violation])
    }

    /// A range that repeats its ID with the same attributes (and more) is allowed.
    @Test func aRepeatedIDWithTheSameAttributesConforms() throws {
        let playlist = try Self.playlist([
            "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", Self.dated,
            #"#EXT-X-DATERANGE:ID="ad",START-DATE="2025-10-29T10:30:00.000Z""#, "#EXTINF:4,", "a.m4s",
            #"#EXT-X-DATERANGE:ID="ad",START-DATE="2025-10-29T10:30:00.000Z",DURATION=4"#, "#EXTINF:4,", "b.m4s",
        ])
        #expect(playlist.rfc8216Violations() == [])
    }
}
