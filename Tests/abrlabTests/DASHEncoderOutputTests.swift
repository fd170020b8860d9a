import Foundation
import Testing
import TestSupport

/// MPDs whose media are not what they promise, as an encoder without a fixed keyframe interval
/// leaves them, and timelines that cannot be a video: each is refused naming the element, or
/// imported with a warning that says what differs and how to fix the encode.
@Suite(.tags(.cli), .selectedByTags) struct DASHEncoderOutputTests {
    /// A media segment as ffmpeg's dash muxer writes one: `styp`, a `sidx` indexing `seconds`
    /// of media (timescale 1000), then `moof` and an `mdat` of 100 bytes.
    static func segment(seconds: Double) -> Data {
        func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        var bytes = u32(24) + Array("stypmsdh".utf8) + u32(0) + Array("msdhmsix".utf8)
        bytes += u32(44) + Array("sidx".utf8) + u32(0) + u32(1) + u32(1000) + u32(0) + u32(0) + [0, 0, 0, 1]
        bytes += u32(116) + u32(Int(seconds * 1000)) + u32(0x9000_0000)
        bytes += u32(8) + Array("moof".utf8) + u32(108) + Array("mdat".utf8) + [UInt8](repeating: 0, count: 100)
        return Data(bytes)
    }

    /// `folder`/manifest.mpd holding `mpd`, and segment files `name` → seconds of media.
    static func encoded(_ mpd: String, segments: [String: Double], in folder: URL) throws -> URL {
        for (name, seconds) in segments { try Self.segment(seconds: seconds).write(to: folder.appendingPathComponent(name)) }
        return try DASHFaultTests.write(mpd, "manifest.mpd", in: folder)
    }

    static func imported(_ mpd: URL) throws -> CLI.Output {
        try CLI.run(["videos", "import", mpd.path, "--out", mpd.deletingLastPathComponent().appendingPathComponent("video.json").path])
    }

    /// A timeline that goes back in time, or jumps past the Period's end, is refused naming the `S`.
    @Test(arguments: [
        (#"<S t="0" d="4" r="1"/><S t="6" d="4"/>"#, [0, 4, 6], "SegmentTimeline S #2 (t=\"6\") starts at 6 s, before the previous segment ends at 8 s; a timeline runs forward"),
        (#"<S t="0" d="4" r="1"/><S t="788" d="4"/>"#, [0, 4, 788], "SegmentTimeline S #2 (t=\"788\") starts at 788 s, at or past the Period's end at 12 s; its segments are not in the video"),
        (#"<S t="0" d="4" r="4"/>"#, [0, 4, 8, 12, 16], "SegmentTimeline S #1 (t=\"0\") repeats past the Period's end: its segment 4 starts at 12 s, and the Period ends at 12 s; r counts the repeats after the first"),
    ])
    func aTimelineThatIsNoVideoIsRefusedNamingTheS(timeline: String, times: [Int], expected: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.encoded("""
            <MPD type="static" mediaPresentationDuration="PT12S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000"><SegmentTemplate media="t$Time$.m4s"><SegmentTimeline>
            \(timeline)
            </SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """, segments: Dictionary(uniqueKeysWithValues: times.map { ("t\($0).m4s", 4) }), in: folder)
        let result = try Self.imported(mpd)
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(mpd.path):3: \(expected)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("video.json").path))
    }

    static let numbered = """
        <MPD type="static" mediaPresentationDuration="PT120S"><Period>
        <AdaptationSet contentType="video" frameRate="25">
        <Representation id="v" bandwidth="1000"><SegmentTemplate timescale="1000" duration="4000" media="seg-$Number$.m4s"/></Representation>
        </AdaptationSet></Period></MPD>
        """

    /// ffmpeg without -g/-keyint_min: @duration says 4 s, the encoder cut 10 s segments, so 12
    /// files where the MPD counts 30. The message says both, and what to set.
    @Test func fewerLongerSegmentsThanTheMPDPromisesPointAtTheKeyframeInterval() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.encoded(Self.numbered, segments: Dictionary(uniqueKeysWithValues: (1...12).map { ("seg-\($0).m4s", 10) }), in: folder)
        let result = try Self.imported(mpd)
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(mpd.path):3: Representation 'v': the MPD promises 30 segments of 4 s (120 s: the Period's length over "
            + "@duration) but the files stop after segment 12: segment 13 '\(folder.path)/seg-13.m4s' is missing, and so is the last, 30; "
            + "segment 1 holds 10 s of media (its sidx). An encoder cuts video segments only at keyframes, so they last a whole number of "
            + "keyframe intervals: for 4 s segments set the keyframe interval to 4 s (ffmpeg: -g and -keyint_min of 100 frames, 4 s × 25 fps, "
            + "and -sc_threshold 0)\n")

        // One file lost among files that exist is only that: no such file.
        for number in 13...30 { try Self.segment(seconds: 4).write(to: folder.appendingPathComponent("seg-\(number).m4s")) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("seg-20.m4s"))
        let lost = try Self.imported(mpd)
        #expect(lost.status == 1)
        #expect(lost.stderr == "abrlab: \(mpd.path):3: Representation 'v': segment 20: no such file '\(folder.path)/seg-20.m4s'\n")
    }

    /// Media whose own index says 10 s where the timeline says 4 s are imported with the MPD's
    /// durations and a warning that says so.
    @Test func mediaLongerThanTheTimelineSaysIsAWarning() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.encoded("""
            <MPD type="static" mediaPresentationDuration="PT12S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000"><SegmentTemplate timescale="1" media="t$Time$.m4s">
            <SegmentTimeline><S t="0" d="4" r="2"/></SegmentTimeline></SegmentTemplate></Representation>
            </AdaptationSet></Period></MPD>
            """, segments: ["t0.m4s": 10, "t4.m4s": 10, "t8.m4s": 10], in: folder)
        let result = try Self.imported(mpd)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "abrlab: \(mpd.path):2: warning: Representation 'v': segment 1 '\(folder.path)/t0.m4s' holds 10 s of media (its sidx) "
            + "but the MPD says 4 s; abrlab plays the MPD's durations. An encoder cuts video segments only at keyframes, so they last a whole "
            + "number of keyframe intervals: for 4 s segments set the keyframe interval to 4 s (ffmpeg: -g and -keyint_min of 4 s × the frame "
            + "rate, and -sc_threshold 0)\n")
    }

    /// A timeline of 10 s video segments beside 4 s audio ones, as ffmpeg writes it when the
    /// keyframe interval is 10 s, is imported with a warning pointing at the keyframe interval.
    @Test func videoSegmentsLongerThanTheAudiosAreAWarning() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.encoded("""
            <MPD type="static" mediaPresentationDuration="PT20S"><Period>
            <AdaptationSet contentType="video" frameRate="30000/1001">
            <Representation id="v" bandwidth="1000"><SegmentTemplate timescale="1" media="t$Time$.m4s">
            <SegmentTimeline><S t="0" d="10" r="1"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>
            <AdaptationSet contentType="audio"><Representation id="a" bandwidth="64000">
            <SegmentTemplate timescale="48000" media="a$Number$.m4s"><SegmentTimeline><S t="0" d="192512" r="4"/></SegmentTimeline>
            </SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """, segments: ["t0.m4s": 10, "t10.m4s": 10], in: folder)
        let result = try Self.imported(mpd)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last.map(String.init) == "abrlab: \(mpd.path):3: warning: the video's segments last 10 s but the audio's 4.011 s (the Adaptation Set of "
            + "line 5). An encoder cuts video segments only at keyframes, so they last a whole number of keyframe intervals: for 4.011 s "
            + "segments set the keyframe interval to 4.011 s (ffmpeg: -g and -keyint_min of 120 frames, 4.011 s × 29.97 fps, and -sc_threshold 0)")
    }

    /// A short last segment is played as a whole one, and the import says so.
    @Test func aShortLastSegmentIsSaidToPlayAsAWholeOne() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.encoded(
            Self.numbered.replacingOccurrences(of: "PT120S", with: "PT10S"),
            segments: ["seg-1.m4s": 4, "seg-2.m4s": 4, "seg-3.m4s": 2], in: folder
        )
        let result = try Self.imported(mpd)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "abrlab: \(mpd.path): warning: the last segment, 3, lasts 2 s and the others 4 s; abrlab's videos have one "
            + "segment duration, so it is played as a whole 4 s segment of its own size\n")
    }
}
