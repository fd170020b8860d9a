import ABRLab
import ABRLabFormats
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSMediaPlaylistTests {
    static let byteRanges = HLSTestSupport.text([
        "#EXTM3U",
        "#EXT-X-VERSION:7",
        "#EXT-X-TARGETDURATION:4",
        "#EXT-X-MEDIA-SEQUENCE:100",
        #"#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0""#,
        "#EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:45.123Z",
        #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:45.123Z",X-COM-TIDAL-FORMAT="HIGH""#,
        "#EXTINF:4.000,first",
        "#EXT-X-BYTERANGE:1000@720",
        "media.mp4",
        "#EXTINF:4,",
        "#EXT-X-BYTERANGE:1500",
        "media.mp4",
        "#EXTINF:3.5",
        "#EXT-X-BYTERANGE:800",
        "media.mp4",
        "#EXT-X-ENDLIST",
    ])

    @Test func readsSegmentsByteRangesAndTheirTags() throws {
        let playlist = try HLSMediaPlaylist.parse(Self.byteRanges, file: "v.m3u8")
        #expect(playlist.targetDurationSeconds == 4)
        #expect(playlist.mediaSequence == 100)
        #expect(playlist.version == 7)
        #expect(playlist.hasEndList)
        #expect(playlist.segments.map(\.durationSeconds) == [4, 4, 3.5])
        #expect(playlist.segments.map(\.title) == ["first", nil, nil])
        #expect(playlist.segments.map(\.sequenceNumber) == [100, 101, 102])
        #expect(playlist.segments.map(\.line) == [10, 13, 16])
        #expect(playlist.segments.map(\.byteRange) == [
            HLSByteRange(lengthBytes: 1000, offsetBytes: 720),
            HLSByteRange(lengthBytes: 1500, offsetBytes: 1720),
            HLSByteRange(lengthBytes: 800, offsetBytes: 3220),
        ])
        let initialization = HLSMediaInitialization(uri: "init.mp4", byteRange: HLSByteRange(lengthBytes: 720, offsetBytes: 0))
        #expect(playlist.segments.allSatisfy { $0.initialization == initialization })
        #expect(playlist.durationSeconds == 11.5)
        #expect(playlist.mediaStartSeconds(ofSegment: 2) == 8)
    }

    @Test func datesLaterSegmentsFromTheLastProgramDate() throws {
        let playlist = try HLSMediaPlaylist.parse(Self.byteRanges, file: "v.m3u8")
        let start = try HLSTestSupport.date("2025-10-29T10:30:45.123Z")
        #expect(playlist.segments[0].programDateTime == start)
        #expect(playlist.segments[1].programDateTime == nil)
        #expect(playlist.programDate(ofSegment: 2) == start.addingTimeInterval(8))
        #expect(playlist.mediaSeconds(of: start.addingTimeInterval(6.5)) == 6.5)
        #expect(playlist.dateRanges.count == 1)
        #expect(playlist.dateRanges[0].segmentIndex == 0)
        #expect(playlist.dateRanges[0].line == 7)
    }

    @Test func readsEveryDateRangeAttributeQuotedOrNot() throws {
        let text = HLSTestSupport.text([
            "#EXTM3U", "#EXT-X-TARGETDURATION:6",
            "#EXTINF:6,", "a.ts",
            #"#EXT-X-DATERANGE:ID=ad-1,CLASS="com.example.ad",START-DATE=2025-10-29T10:30:00+02:00,"#
                + #"END-DATE="2025-10-29T10:30:30.5+02:00",DURATION=30.5,PLANNED-DURATION=31,SCTE35-OUT=0xFC002F,"#
                + #"X-AD-ID="a,b=c",X-COUNT=42,X-RATIO=-1.5,X-FLAG=YES"#,
            #"#EXT-X-DATERANGE:ID="next",CLASS="com.example.chapter",START-DATE="2025-10-29T08:31:00Z",END-ON-NEXT=YES"#,
            "#EXTINF:6,", "b.ts",
        ])
        let playlist = try HLSMediaPlaylist.parse(text, file: "v.m3u8")
        let range = playlist.dateRanges[0]
        #expect(range.id == "ad-1")
        #expect(range.classIdentifier == "com.example.ad")
        #expect(range.startDate == (try HLSTestSupport.date("2025-10-29T08:30:00Z")))
        #expect(range.endDate == (try HLSTestSupport.date("2025-10-29T08:30:30.500Z")))
        #expect(range.durationSeconds == 30.5)
        #expect(range.plannedDurationSeconds == 31)
        #expect(range.scte35Out == "0xFC002F")
        #expect(range.scte35In == nil)
        #expect(!range.endsOnNext)
        #expect(range.segmentIndex == 1)
        #expect(range.clientAttributes.map(\.name) == ["X-AD-ID", "X-COUNT", "X-RATIO", "X-FLAG"])
        #expect(range.clientAttribute("X-AD-ID") == .quoted("a,b=c"))
        #expect(range.clientAttribute("X-COUNT")?.integer == 42)
        #expect(range.clientAttribute("X-RATIO")?.number == -1.5)
        #expect(range.clientAttribute("X-FLAG") == HLSAttributeValue(kind: .enumeratedString, text: "YES"))
        #expect(range.attributes.names.count == 11)
        #expect(playlist.dateRanges[1].endsOnNext)
        #expect(playlist.dateRanges[1].id == "next")
    }

    static let header = ["#EXTM3U", "#EXT-X-TARGETDURATION:4"]

    @Test(arguments: [
        (header + ["#EXTINF:abc,", "a.ts"], "v.m3u8:3: EXTINF duration 'abc' is not a number of seconds"),
        (header + ["#EXTINF:-1,", "a.ts"], "v.m3u8:3: EXTINF duration is -1; it must be ≥ 0"),
        (header + ["#EXTINF:4,", "#EXTINF:4,", "a.ts"], "v.m3u8:4: EXTINF follows the EXTINF of line 3 without a segment URI between them"),
        (header + ["#EXTINF:4,"], "v.m3u8:3: EXTINF has no segment URI after it"),
        (header + ["a.ts"], "v.m3u8:3: segment URI 'a.ts' has no EXTINF before it"),
        (header + ["#EXTINF:4,", "#EXT-X-BYTERANGE:100", "a.mp4"],
         "v.m3u8:4: EXT-X-BYTERANGE without @OFFSET continues the previous segment's range, but the previous segment is not a range of a.mp4"),
        (header + ["#EXTINF:4,", "#EXT-X-BYTERANGE:100@0", "a.mp4", "#EXTINF:4,", "#EXT-X-BYTERANGE:100", "b.mp4"],
         "v.m3u8:7: EXT-X-BYTERANGE without @OFFSET continues the previous segment's range, but the previous segment is not a range of b.mp4"),
        (header + ["#EXTINF:4,", "#EXT-X-BYTERANGE:10@", "a.mp4"], "v.m3u8:4: EXT-X-BYTERANGE '10@' is not LENGTH[@OFFSET] with a length > 0"),
        (header + ["#EXTINF:4,", "#EXT-X-BYTERANGE:0@0", "a.mp4"], "v.m3u8:4: EXT-X-BYTERANGE '0@0' is not LENGTH[@OFFSET] with a length > 0"),
        (header + ["#EXT-X-BYTERANGE:10@0"], "v.m3u8:3: EXT-X-BYTERANGE has no segment URI after it"),
        (["#EXTM3U", "#EXTINF:4,", "a.ts"], "v.m3u8: the media playlist has no EXT-X-TARGETDURATION"),
        (["#EXTM3U", "#EXT-X-TARGETDURATION:4.5"], "v.m3u8:2: EXT-X-TARGETDURATION '4.5' is not a whole number"),
        (header + ["#EXTINF:4,", "a.ts", "#EXT-X-MEDIA-SEQUENCE:3"], "v.m3u8:5: EXT-X-MEDIA-SEQUENCE must come before the first segment"),
        (header + [#"#EXT-X-MAP:BYTERANGE="1@0""#], "v.m3u8:3: EXT-X-MAP needs URI"),
        (header + [#"#EXT-X-MAP:URI="i.mp4",BYTERANGE="x""#], "v.m3u8:3: EXT-X-MAP BYTERANGE 'x' is not LENGTH[@OFFSET] with a length > 0"),
        (header + ["#EXT-X-PROGRAM-DATE-TIME:2025-13-01T00:00:00Z"],
         "v.m3u8:3: EXT-X-PROGRAM-DATE-TIME '2025-13-01T00:00:00Z' is not an ISO 8601 date and time such as 2025-10-29T10:30:45.123Z"),
        (header + [#"#EXT-X-DATERANGE:CLASS="c",START-DATE="2025-10-29T10:30:00Z""#], "v.m3u8:3: EXT-X-DATERANGE needs ID"),
        (header + [#"#EXT-X-DATERANGE:ID="a""#], "v.m3u8:3: EXT-X-DATERANGE needs START-DATE"),
        (header + [#"#EXT-X-DATERANGE:ID="a",START-DATE="yesterday""#],
         "v.m3u8:3: EXT-X-DATERANGE START-DATE 'yesterday' is not an ISO 8601 date and time such as 2025-10-29T10:30:45.123Z"),
        (header + [#"#EXT-X-DATERANGE:ID="a",START-DATE="2025-10-29T10:30:00Z",END-DATE="2025-10-29T10:29:00Z""#],
         "v.m3u8:3: EXT-X-DATERANGE END-DATE is before its START-DATE"),
        (header + [#"#EXT-X-DATERANGE:ID="a",START-DATE="2025-10-29T10:30:00Z",DURATION=-1"#],
         "v.m3u8:3: EXT-X-DATERANGE DURATION is -1; it must be ≥ 0"),
        (header + [#"#EXT-X-DATERANGE:ID="a",START-DATE="2025-10-29T10:30:00Z",END-ON-NEXT=YES"#],
         "v.m3u8:3: EXT-X-DATERANGE with END-ON-NEXT needs CLASS"),
        (header + [#"#EXT-X-DATERANGE:ID="a",CLASS="c",START-DATE="2025-10-29T10:30:00Z",END-ON-NEXT=YES,DURATION=1"#],
         "v.m3u8:3: EXT-X-DATERANGE with END-ON-NEXT cannot have DURATION or END-DATE"),
        (header + [#"#EXT-X-DATERANGE:ID="a",CLASS="c",START-DATE="2025-10-29T10:30:00Z",END-ON-NEXT=NO"#],
         "v.m3u8:3: EXT-X-DATERANGE END-ON-NEXT is NO; its only value is YES"),
        (header + [#"#EXT-X-DATERANGE:ID="a",START-DATE="2025-10-29T10:30:00Z",X-A=1,X-A=2"#],
         "v.m3u8:3: EXT-X-DATERANGE: attribute X-A appears twice"),
        (header + ["#EXT-X-STREAM-INF:BANDWIDTH=1"], "v.m3u8:3: EXT-X-STREAM-INF belongs in a master playlist; this should be a media playlist"),
    ])
    func reportsMalformedPlaylistsWithTheirLine(lines: [String], message: String) {
        let text = HLSTestSupport.text(lines)
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSMediaPlaylist.parse(text, file: "v.m3u8") } == message)
    }
}
