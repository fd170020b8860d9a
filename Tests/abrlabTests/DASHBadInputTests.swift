import Foundation
import Testing
import TestSupport

/// Bad MPDs and media: one line naming the MPD (and the line, and for XML the column), a
/// non-zero exit, and no output, from `compare` and from `videos import` alike.
@Suite(.tags(.cli), .selectedByTags) struct DASHBadInputTests {
    /// A broken copy of a fixture folder: `fixture` copied, then `damage` applied to it.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let fixture: String
        let mpd: String
        let damage: @Sendable (URL) throws -> Void
        /// What stderr must be after `abrlab: ` and the MPD's path.
        let expected: String
    }

    static func replace(_ old: String, _ new: String, in file: String) -> @Sendable (URL) throws -> Void {
        { folder in
            let url = folder.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old), "\(file) lacks \(old)")
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
    }

    static let timelineRepresentation0 = #"<S t="0" d="10240" r="3" />"#

    static let cases: [Case] = [
        Case(
            description: "malformed XML", fixture: "template", mpd: "manifest.mpd",
            damage: replace("</AdaptationSet>\n\t\t<AdaptationSet id=\"1\"", "</Adaptation>\n\t\t<AdaptationSet id=\"1\"", in: "manifest.mpd"),
            expected: ":29: column 3: malformed XML (the end tag </Adaptation> does not match <AdaptationSet> of line 16)"
        ),
        Case(
            description: "a Representation without segments", fixture: "single-file", mpd: "segment-base.mpd",
            damage: replace(
                "<SegmentBase indexRange=\"805-892\">\n\t\t\t\t\t<Initialization range=\"0-804\" />\n\t\t\t\t</SegmentBase>", "",
                in: "segment-base.mpd"
            ),
            expected: ":23: Representation '1' has no segments: no SegmentList, SegmentBase or SegmentTemplate here, in its Adaptation Set or in its Period"
        ),
        Case(
            description: "a missing segment file", fixture: "timeline", mpd: "manifest.mpd",
            damage: { try FileManager.default.removeItem(at: $0.appendingPathComponent("seg-2-20480.m4s")) },
            expected: ":32: Representation '2': segment 3: no such file '%/seg-2-20480.m4s'"
        ),
        Case(
            description: "a range past the end of its file", fixture: "single-file", mpd: "manifest.mpd",
            damage: replace(#"mediaRange="3213-3793""#, #"mediaRange="3213-3794""#, in: "manifest.mpd"),
            expected: ":24: Representation '0': segment 4: mediaRange 3213-3794 runs past the end of '%/manifest-stream0.mp4' (3794 bytes)"
        ),
        Case(
            description: "a sidx past the end of its file", fixture: "single-file", mpd: "segment-base.mpd",
            damage: { folder in
                let url = folder.appendingPathComponent("manifest-stream0.mp4")
                let data = try Data(contentsOf: url)
                try data.prefix(data.count - 100).write(to: url)
            },
            expected: ":19: Representation '0': the sidx of '%/manifest-stream0.mp4' references bytes 889-3793, past the file's end at 3694 bytes"
        ),
        Case(
            description: "a sidx that leaves media out", fixture: "single-file", mpd: "segment-base.mpd",
            damage: { folder in
                let url = folder.appendingPathComponent("manifest-stream0.mp4")
                var data = try Data(contentsOf: url)
                // A fifth fragment the index does not list: the file's last moof and mdat again.
                let last = try DASHVideoTests.fragmentSizes(url).last!
                data.append(data.suffix(last))
                try data.write(to: url)
            },
            expected: ":19: Representation '0': the sidx of '%/manifest-stream0.mp4' does not cover the file: it ends at byte 3794 but a 'moof' box starts at byte 3794"
        ),
        Case(
            description: "an MPD with no video", fixture: "template", mpd: "manifest.mpd",
            damage: replace(#"contentType="video""#, #"contentType="text""#, in: "manifest.mpd"),
            expected: ":15: Period has no video Adaptation Set (by contentType, mimeType or codecs); abrlab emulates video"
        ),
        Case(
            description: "a live MPD", fixture: "template", mpd: "manifest.mpd",
            damage: replace(#"type="static""#, #"type="dynamic""#, in: "manifest.mpd"),
            expected: ":2: MPD type=\"dynamic\" is a live MPD; abrlab reads static (on-demand) MPDs only"
        ),
        Case(
            description: "remote media", fixture: "single-file", mpd: "manifest.mpd",
            damage: replace("<BaseURL>manifest-stream1.mp4</BaseURL>", "<BaseURL>https://cdn.example/manifest-stream1.mp4</BaseURL>", in: "manifest.mpd"),
            expected: ":28: BaseURL 'https://cdn.example/manifest-stream1.mp4' is remote; the media must be local (abrlab reads segment sizes from disk), so give a relative BaseURL or none"
        ),
        Case(
            description: "unequal segment durations", fixture: "timeline", mpd: "manifest.mpd",
            // Times 0, 10240, 20480 and 30720 still name the fixture's files; the third segment is short.
            damage: replace(timelineRepresentation0, #"<S t="0" d="10240" r="1" /><S d="5120" /><S t="30720" d="10240" />"#, in: "manifest.mpd"),
            expected: ":17: Representation '0': segment 3 lasts 0.5 s but segment 1 lasts 1 s; abrlab's videos have one segment duration "
                + "(only the last segment may be shorter) and unequal ones are not averaged. An encoder cuts video segments only at keyframes, "
                + "so they last a whole number of keyframe intervals: for 1 s segments set the keyframe interval to 1 s (ffmpeg: -g and "
                + "-keyint_min of 5 frames, 1 s × 5 fps, and -sc_threshold 0)"
        ),
    ]

    @Test(arguments: cases)
    func refusedInOneLineWithoutOutput(_ bad: Case) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = folder.appendingPathComponent(bad.fixture)
        try FileManager.default.copyItem(at: DASHVideoTests.fixtures.appendingPathComponent(bad.fixture), to: media)
        try bad.damage(media)
        let mpd = media.appendingPathComponent(bad.mpd).path
        let expected = "abrlab: " + mpd + bad.expected.replacingOccurrences(of: "%", with: media.path) + "\n"
        let results = folder.appendingPathComponent("results")
        let compared = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", mpd, "--out", results.path])
        #expect(compared.status == 1)
        #expect(compared.stderr == expected)
        #expect(!FileManager.default.fileExists(atPath: results.path))
        let manifest = folder.appendingPathComponent("video.json")
        let imported = try CLI.run(["videos", "import", mpd, "--out", manifest.path])
        #expect(imported.status == 1)
        #expect(imported.stderr == expected)
        #expect(!FileManager.default.fileExists(atPath: manifest.path))
    }
}
