import ABRLab
import ABRLabFormats
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct HLSVideoLoaderTests {
    static func master(_ variants: [(bandwidth: Int, extra: String, uri: String)]) -> String {
        HLSTestSupport.text(["#EXTM3U"] + variants.flatMap { ["#EXT-X-STREAM-INF:BANDWIDTH=\($0.bandwidth)\($0.extra)", $0.uri] })
    }

    static func media(_ segments: [(seconds: Double, uri: String)], format: String? = nil, extraTags: [String] = []) -> String {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:00.000Z"]
        if let format {
            lines.append(#"#EXT-X-DATERANGE:ID="\#(format)",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00.000Z",X-COM-TIDAL-FORMAT="\#(format)""#)
        }
        lines += extraTags
        for segment in segments { lines += ["#EXTINF:\(segment.seconds),", segment.uri] }
        return HLSTestSupport.text(lines + ["#EXT-X-ENDLIST"])
    }

    @Test func sizesFromByteRangesAndLevelsSortedByBandwidth() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("hi/index.m3u8", HLSTestSupport.text([
            "#EXTM3U", "#EXT-X-TARGETDURATION:4",
            "#EXTINF:4,", "#EXT-X-BYTERANGE:5000@0", "hi.mp4",
            "#EXTINF:4,", "#EXT-X-BYTERANGE:6000", "hi.mp4",
            "#EXTINF:2,", "#EXT-X-BYTERANGE:2500", "hi.mp4",
        ]))
        try fixtures.write("lo/index.m3u8", HLSTestSupport.text([
            "#EXTM3U", "#EXT-X-TARGETDURATION:4",
            "#EXTINF:4,", "#EXT-X-BYTERANGE:1000@0", "lo.mp4",
            "#EXTINF:4,", "#EXT-X-BYTERANGE:1100", "lo.mp4",
            "#EXTINF:2,", "#EXT-X-BYTERANGE:500", "lo.mp4",
        ]))
        let url = try fixtures.write("bbb.m3u8", Self.master([
            (2_000_000, ",RESOLUTION=1280x720", "hi/index.m3u8"), (500_000, ",RESOLUTION=640x360", "lo/index.m3u8"),
        ]))
        let loaded = try HLSVideoLoader.load(url)
        let video = loaded.video
        #expect(loaded.warnings.isEmpty)
        #expect(video.name == "bbb")
        #expect(video.ladder == [BitrateLevel(bitrate: 500_000, label: "360p"), BitrateLevel(bitrate: 2_000_000, label: "720p")])
        #expect(video.formats == [nil, nil])
        #expect(video.segmentDurationSeconds == 4)
        #expect(video.segmentCount == 3)
        #expect((0..<3).map { video.sizeBytes(segment: $0, level: 0) } == [1000, 1100, 500])
        #expect((0..<3).map { video.sizeBytes(segment: $0, level: 1) } == [5000, 6000, 2500])
        #expect(loaded.variants.map(\.uri) == ["lo/index.m3u8", "hi/index.m3u8"])
        #expect(loaded.mediaPlaylists[1].segments[1].byteRange == HLSByteRange(lengthBytes: 6000, offsetBytes: 5000))
        #expect(try HLSVideoLoader.load(url.path, name: "named").video.name == "named")
    }

    @Test func sizesFromSegmentFilesElseEstimatedWithAWarning() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("high/s0.m4s", String(repeating: "x", count: 40_000))
        try fixtures.write("high/s1.m4s", String(repeating: "x", count: 38_000))
        try fixtures.write("high/index.m3u8", Self.media([(4, "s0.m4s"), (4, "s1.m4s")], format: "HIGH"))
        try fixtures.write("low/index.m3u8", Self.media([(4, "s0.m4s"), (4, "s1.m4s")], format: "LOW"))
        let url = try fixtures.write("audio.m3u8", Self.master([
            (320_000, #",CODECS="mp4a.40.2""#, "high/index.m3u8"), (128_000, "", "low/index.m3u8"),
        ]))
        let loaded = try HLSVideoLoader.load(url)
        let video = loaded.video
        #expect(video.formats == ["LOW", "HIGH"])
        #expect(video.ladder.map(\.label) == ["LOW", "HIGH"])
        #expect((0..<2).map { video.sizeBytes(segment: $0, level: 1) } == [40_000, 38_000])
        #expect((0..<2).map { video.sizeBytes(segment: $0, level: 0) } == [64_000, 64_000])
        #expect(loaded.warnings == [InputWarning(
            file: fixtures.url.path + "/low/index.m3u8",
            "2 of 2 segments have neither a byte range nor a file on disk; their sizes are estimated as BANDWIDTH × EXTINF / 8"
        )])
    }

    @Test func usesTheMedianDurationAndTheShortestVariant() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("a.m3u8", Self.media([(4, "a0"), (4, "a1"), (4.5, "a2"), (4, "a3"), (1, "a4")]))
        try fixtures.write("b.m3u8", Self.media([(4, "b0"), (4, "b1"), (4, "b2"), (4, "b3")]))
        let url = try fixtures.write("m.m3u8", Self.master([(100_000, "", "a.m3u8"), (200_000, "", "b.m3u8")]))
        let loaded = try HLSVideoLoader.load(url)
        #expect(loaded.video.segmentDurationSeconds == 4)
        #expect(loaded.video.segmentCount == 4)
        #expect(loaded.video.ladder.map(\.label) == ["100k", "200k"])
        #expect(loaded.video.sizeBytes(segment: 2, level: 0) == 56_250)
        #expect(loaded.warnings.map(\.message) == [
            "variants have different segment counts (a.m3u8: 5, b.m3u8: 4); using the first 4",
            "1 segment lasts 4.5 s, more than 1 % away from the median 4 s used for every segment",
            "4 of 4 segments have neither a byte range nor a file on disk; their sizes are estimated as BANDWIDTH × EXTINF / 8",
            "4 of 4 segments have neither a byte range nor a file on disk; their sizes are estimated as BANDWIDTH × EXTINF / 8",
        ])
    }

    @Test func labelsAndFormatsFromSeveralFormatTags() throws {
        let fixtures = try FixtureDirectory()
        let switching = #"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:04.000Z""#
        try fixtures.write("a.m3u8", Self.media([(4, "a0"), (4, "a1")], format: "LOW", extraTags: [switching]))
        try fixtures.write("b.m3u8", Self.media([(4, "b0"), (4, "b1")]))
        try fixtures.write("c.m3u8", Self.media([(4, "c0"), (4, "c1")]))
        let url = try fixtures.write("m.m3u8", Self.master([
            (100_000, "", "a.m3u8"), (200_000, ",RESOLUTION=640x360", "b.m3u8"), (300_000, ",RESOLUTION=960x360", "c.m3u8"),
        ]))
        let loaded = try HLSVideoLoader.load(url)
        #expect(loaded.video.formats == ["LOW", nil, nil])
        #expect(loaded.video.ladder.map(\.label) == ["LOW", "200k", "300k"])
        #expect(loaded.warnings.first?.message == "announces several formats (LOW, HIGH); the level is labelled LOW")
    }

    @Test func dropsRepeatedVariantsAndRejectsEqualBandwidths() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("a.m3u8", Self.media([(4, "a0")]))
        try fixtures.write("b.m3u8", Self.media([(4, "b0")]))
        let repeated = try fixtures.write("repeated.m3u8", Self.master([(100_000, "", "a.m3u8"), (100_000, "", "a.m3u8")]))
        #expect(try HLSVideoLoader.load(repeated).video.levelCount == 1)
        let clash = try fixtures.write("clash.m3u8", Self.master([(100_000, "", "a.m3u8"), (100_000, "", "b.m3u8")]))
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSVideoLoader.load(clash) }
            == "\(clash.path):4: variants a.m3u8 (line 2) and b.m3u8 have the same BANDWIDTH 100000; a ladder needs distinct bitrates")
    }

    @Test func namesTheMediaPlaylistInItsErrors() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("v/bad.m3u8", HLSTestSupport.text(["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXTINF:x,", "a.ts"]))
        try fixtures.write("v/empty.m3u8", HLSTestSupport.text(["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-ENDLIST"]))
        let bad = try fixtures.write("bad.m3u8", Self.master([(1000, "", "v/bad.m3u8")]))
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSVideoLoader.load(bad) }
            == "\(fixtures.url.path)/v/bad.m3u8:3: EXTINF duration 'x' is not a number of seconds")
        let empty = try fixtures.write("empty.m3u8", Self.master([(1000, "", "v/empty.m3u8")]))
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSVideoLoader.load(empty) }
            == "\(fixtures.url.path)/v/empty.m3u8: the media playlist lists no segments")
        let missing = try fixtures.write("missing.m3u8", Self.master([(1000, "", "v/none.m3u8")]))
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSVideoLoader.load(missing) }
            == "\(fixtures.url.path)/v/none.m3u8: no such file")
        let remote = try fixtures.write("remote.m3u8", Self.master([(1000, "", "https://example.com/v.m3u8")]))
        #expect(HLSTestSupport.error { () throws(InputError) in try HLSVideoLoader.load(remote) }
            == "\(remote.path):2: 'https://example.com/v.m3u8' is not a local file; abrlab reads playlists from disk")
    }

    @Test func recognisesPlaylistSpecs() {
        #expect(HLSVideoLoader.handles("media/master.m3u8"))
        #expect(HLSVideoLoader.handles("LIST.M3U"))
        #expect(!HLSVideoLoader.handles("video.json"))
    }
}
