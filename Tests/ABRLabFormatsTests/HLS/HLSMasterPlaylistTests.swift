import ABRLab
import ABRLabFormats
import EngineFixtures
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSMasterPlaylistTests {
    static let master = HLSTestSupport.text([
        "#EXTM3U",
        "#EXT-X-VERSION:6",
        "#EXT-X-INDEPENDENT-SEGMENTS",
        #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",URI="audio.m3u8""#,
        #"#EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=2200000,RESOLUTION=1280x720,CODECS="avc1.4d401f,mp4a.40.2",FRAME-RATE=29.970"#,
        "v720/index.m3u8",
        "",
        "# a comment",
        #"#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e, mp4a.40.2""#,
        "v360/index.m3u8",
        #"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="iframes.m3u8""#,
    ])

    @Test func readsVariantsInPlaylistOrder() throws {
        let playlist = try HLSMasterPlaylist.parse(Self.master, file: "master.m3u8")
        #expect(playlist.variants.count == 2)
        let first = playlist.variants[0]
        #expect(first.bandwidthBitsPerSecond == 2_500_000)
        #expect(first.averageBandwidthBitsPerSecond == 2_200_000)
        #expect(first.resolution == HLSResolution(widthPixels: 1280, heightPixels: 720))
        #expect(first.codecs == ["avc1.4d401f", "mp4a.40.2"])
        #expect(first.uri == "v720/index.m3u8")
        #expect(first.line == 5)
        #expect(first.attributes["FRAME-RATE"]?.number == 29.97)
        let second = playlist.variants[1]
        #expect(second.bandwidthBitsPerSecond == 800_000)
        #expect(second.averageBandwidthBitsPerSecond == nil)
        #expect(second.codecs == ["avc1.4d401e", "mp4a.40.2"])
        #expect(second.uri == "v360/index.m3u8")
        #expect(second.line == 9)
    }

    @Test(arguments: [
        (["#EXT-X-VERSION:3", "#EXTM3U"], "master.m3u8:1: a playlist starts with #EXTM3U"),
        (["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-STREAM-INF:RESOLUTION=640x360", "a.m3u8"],
         "master.m3u8:3: EXT-X-STREAM-INF needs BANDWIDTH"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=fast", "a.m3u8"],
         "master.m3u8:2: EXT-X-STREAM-INF BANDWIDTH 'fast' is not a whole number"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=0", "a.m3u8"], "master.m3u8:2: EXT-X-STREAM-INF BANDWIDTH must be > 0"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1,AVERAGE-BANDWIDTH=1.5", "a.m3u8"],
         "master.m3u8:2: EXT-X-STREAM-INF AVERAGE-BANDWIDTH '1.5' is not a whole number"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1280", "a.m3u8"],
         "master.m3u8:2: EXT-X-STREAM-INF RESOLUTION '1280' is not WIDTHxHEIGHT, e.g. 1280x720"),
        (["#EXTM3U", #"#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1"#, "a.m3u8"],
         "master.m3u8:2: EXT-X-STREAM-INF: attribute CODECS has a quoted string without its closing quote"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "a.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=2"],
         "master.m3u8:4: EXT-X-STREAM-INF has no URI line after it"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "#EXT-X-STREAM-INF:BANDWIDTH=2", "b.m3u8"],
         "master.m3u8:2: EXT-X-STREAM-INF has no URI line after it"),
        (["#EXTM3U", "#EXT-X-STREAM-INF", "b.m3u8"], "master.m3u8:2: EXT-X-STREAM-INF needs a value after its colon"),
        (["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "a.m3u8", "b.m3u8"],
         "master.m3u8:4: URI 'b.m3u8' has no EXT-X-STREAM-INF before it"),
        (["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXTINF:4,", "a.ts"],
         "master.m3u8:2: EXT-X-TARGETDURATION belongs in a media playlist; this should be a master playlist listing EXT-X-STREAM-INF variants"),
        (["#EXTM3U", "#EXT-X-VERSION:3"], "master.m3u8: the master playlist lists no variants (EXT-X-STREAM-INF)"),
    ])
    func reportsMalformedPlaylistsWithTheirLine(lines: [String], message: String) {
        let text = HLSTestSupport.text(lines)
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSMasterPlaylist.parse(text, file: "master.m3u8") } == message)
    }

    @Test func emptyTextIsAnError() {
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSMasterPlaylist.parse("", file: "m.m3u8") }
            == "m.m3u8: the playlist is empty; it should start with #EXTM3U")
    }
}
