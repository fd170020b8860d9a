import ABRLab
import ABRLabFormats
import ABRLabPlayerKit
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSPlaylistWriterTests {
    @Test func writesTheBackendsDateRangeLineExactly() throws {
        #expect(HLSPlaylistWriter.formatDateRangeLine(format: "HIGH", startDate: "2025-10-29T10:30:45.123Z")
            == #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:45.123Z",X-COM-TIDAL-FORMAT="HIGH""#)
    }

    @Test func writesProgramDatesAndATagAtEachChange() throws {
        let video = try AudioFormatPreset.video(segmentCount: 6)
        let writer = HLSPlaylistWriter(
            startDate: try HLSTestSupport.date("2025-10-29T10:30:45.123Z"), segmentURITemplate: "{format}/{index}.m4s?l={level}"
        )
        let segments = Array(FormatTimelineTests.records().prefix(4))
        #expect(writer.mediaPlaylistText(video: video, segments: segments) == """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:45.123Z
            #EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:45.123Z",X-COM-TIDAL-FORMAT="HIGH"
            #EXTINF:4,
            HIGH/1.m4s?l=2
            #EXTINF:4,
            HIGH/2.m4s?l=2
            #EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:53.123Z
            #EXT-X-DATERANGE:ID="LOSSLESS",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:53.123Z",X-COM-TIDAL-FORMAT="LOSSLESS"
            #EXTINF:4,
            LOSSLESS/3.m4s?l=3
            #EXTINF:4,
            LOSSLESS/4.m4s?l=3
            #EXT-X-ENDLIST

            """)
    }

    @Test func defaultsToTheSeedsStartDateAndLabelledURIs() throws {
        let video = try VideoPreset.standard.video(segmentCount: 2)
        let segments = [FormatTimelineTests.record(0, level: 2, arrivalSeconds: 1), FormatTimelineTests.record(1, level: 4, arrivalSeconds: 2)]
        let text = HLSPlaylistWriter().mediaPlaylistText(video: video, segments: segments)
        #expect(text.contains("#EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:00.000Z\n#EXTINF:4,\n720p/segment_1.m4s\n#EXTINF:4,\n4K/segment_2.m4s\n"))
        #expect(!text.contains("DATERANGE"))
    }

    @Test func roundTripsTheFormatChanges() throws {
        let fixtures = try FixtureDirectory()
        let video = try AudioFormatPreset.video(segmentCount: 6)
        let session = SessionResult(
            traceName: "t", profileName: "default", segments: FormatTimelineTests.records(), transitions: [],
            startupSeconds: 1, stallCount: 0, endSeconds: 20, segmentDurationSeconds: 4
        )
        let url = fixtures.url.appendingPathComponent("session.m3u8")
        try HLSPlaylistWriter().writeMediaPlaylist(video: video, session: session, to: url)
        let playlist = try HLSMediaPlaylist.load(url)
        let written = FormatTimeline.changes(video: video, session: session)
        #expect(written.count == 4)
        #expect(playlist.formatChanges == written.map(\.metadata))
        #expect(playlist.dateRanges.map(\.segmentIndex) == written.map(\.segmentIndex))
        #expect(playlist.segments.count == 6)
        #expect(playlist.hasEndList)
        #expect(playlist.dateRanges.map(\.id) == ["HIGH", "LOSSLESS", "HIGH-2", "LOW"])
        #expect(playlist.rfc8216Violations() == [])
    }

    /// A format that returns gets a numbered ID, never one given before, so no two ranges share
    /// an ID (RFC 8216 §4.3.2.7.1).
    @Test(arguments: [
        (["LOW", "HIGH", "LOSSLESS"], [1, 0, 1, 0, 1], ["HIGH", "LOW", "HIGH-2", "LOW-2", "HIGH-3"]),
        (["HIGH", "HIGH-2", "LOW"], [0, 1, 0, 2, 0], ["HIGH", "HIGH-2", "HIGH-3", "LOW", "HIGH-4"]),
    ])
    func dateRangeIDsAreUniquePerRange(formats: [String], levels: [Int], ids: [String]) throws {
        let ladder = [BitrateLevel(bitrate: 128_000, label: "a"), BitrateLevel(bitrate: 320_000, label: "b"), BitrateLevel(bitrate: 900_000, label: "c")]
        let video = try Video(name: "v", segmentDurationSeconds: 4, ladder: ladder, segmentCount: levels.count, formats: formats)
        let segments = levels.enumerated().map { FormatTimelineTests.record($0.offset, level: $0.element, arrivalSeconds: Double($0.offset) + 1) }
        let playlist = try HLSMediaPlaylist.parse(HLSPlaylistWriter().mediaPlaylistText(video: video, segments: segments), file: "p.m3u8")
        #expect(playlist.dateRanges.map(\.id) == ids)
        #expect(playlist.dateRanges.map(\.formatString) == levels.map { formats[$0] })
        #expect(playlist.rfc8216Violations() == [])
    }
}
