import Foundation
import Testing
import TestSupport

/// Video inputs that used to hang, take minutes or print megabytes: FIFOs and devices where a
/// manifest or a segment should be, an MPD that promises millions of segments, and huge values
/// quoted in messages. Each ends at once in one line naming the file.
@Suite(.tags(.cli), .selectedByTags) struct DASHFaultTests {
    static let fifo = "is a FIFO (named pipe), not a regular file; inputs are read from files"

    /// `arguments` run as the binary under `timeout`: a blocked read fails the test (status 124)
    /// instead of hanging it.
    static func bounded(_ arguments: [String]) throws -> CLI.Output {
        try CLI.runTool("/usr/bin/timeout", ["30", CLI.binary.path] + arguments)
    }

    static func compare(video: String, out: URL) -> [String] {
        ["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", video, "--out", out.path, "--quiet"]
    }

    /// Writes `text` to `folder`/`name`.
    @discardableResult
    static func write(_ text: String, _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A FIFO given as the video (an MPD, a Sabre manifest, a Pensieve size file) or to
    /// `videos import` is refused without waiting for a writer, saying what it is.
    @Test func aFIFOAsTheVideoOrTheImportIsRefusedAtOnce() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = folder.appendingPathComponent("fifo.mpd")
        let sabre = folder.appendingPathComponent("fifo.json")
        let sizes = folder.appendingPathComponent("sizes")
        try FileManager.default.createDirectory(at: sizes, withIntermediateDirectories: true)
        for url in [mpd, sabre, sizes.appendingPathComponent("video_size_0")] { #expect(mkfifo(url.path, 0o600) == 0) }
        for level in 1..<6 { try Self.write("1000\n", "video_size_\(level)", in: sizes) }
        let out = folder.appendingPathComponent("results")
        let manifest = folder.appendingPathComponent("video.json")
        let cases: [([String], String)] = [
            (Self.compare(video: mpd.path, out: out), mpd.path),
            (Self.compare(video: sabre.path, out: out), sabre.path),
            (Self.compare(video: sizes.path, out: out), sizes.appendingPathComponent("video_size_0").path),
            (["videos", "import", mpd.path, "--out", manifest.path], mpd.path),
        ]
        for (arguments, file) in cases {
            let result = try Self.bounded(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "abrlab: \(file): \(Self.fifo)\n")
        }
        // A folder holding only a FIFO named like an MPD imports it, and refuses it the same way.
        let only = folder.appendingPathComponent("only")
        try FileManager.default.createDirectory(at: only, withIntermediateDirectories: true)
        #expect(mkfifo(only.appendingPathComponent("manifest.mpd").path, 0o600) == 0)
        let inFolder = try Self.bounded(["videos", "import", only.path, "--out", manifest.path])
        #expect(inFolder.status == 1)
        #expect(inFolder.stderr == "abrlab: \(only.path)/manifest.mpd: \(Self.fifo)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path) && !FileManager.default.fileExists(atPath: manifest.path))
    }

    /// A segment that is a FIFO or a link to /dev/zero is said to be one, not "no such file",
    /// from an MPD and from level folders alike.
    @Test func aSegmentThatIsAFIFOOrADeviceIsSaidToBeOne() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000">
            <SegmentTemplate media="seg-$Number$.m4s" duration="1"/></Representation>
            </AdaptationSet></Period></MPD>
            """, "template/manifest.mpd", in: folder)
        try Self.write("segment", "template/seg-1.m4s", in: folder)
        #expect(mkfifo(folder.appendingPathComponent("template/seg-2.m4s").path, 0o600) == 0)
        let list = try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000"><SegmentList duration="1">
            <SegmentURL media="zero.m4s"/></SegmentList></Representation>
            </AdaptationSet></Period></MPD>
            """, "list/manifest.mpd", in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("list/zero.m4s").path, withDestinationPath: "/dev/zero")
        let levels = folder.appendingPathComponent("levels")
        try Self.write("segment", "levels/a/seg-1.m4s", in: folder)
        #expect(mkfifo(levels.appendingPathComponent("a/seg-2.m4s").path, 0o600) == 0)

        let out = folder.appendingPathComponent("video.json")
        let device = "is a character device, not a regular file; inputs are read from files"
        let cases: [([String], String)] = [
            (["videos", "import", template.path], "\(template.path):3: Representation 'v': segment 2: '\(folder.path)/template/seg-2.m4s' \(Self.fifo)"),
            (["videos", "import", list.path], "\(list.path):3: Representation 'v': segment 1: '\(folder.path)/list/zero.m4s' \(device)"),
            (["videos", "import", levels.path, "--segment-duration-s", "1"], "\(levels.path)/a/seg-2.m4s: \(Self.fifo)"),
        ]
        for (arguments, expected) in cases {
            let result = try Self.bounded(arguments + ["--out", out.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "abrlab: \(expected)\n")
        }
        let compared = try Self.bounded(Self.compare(video: template.path, out: folder.appendingPathComponent("results")))
        #expect(compared.stderr == "abrlab: \(cases[0].1)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// An MPD with `count` segments in each of `levels` Representations, every one naming `one.m4s`.
    static func manySegments(_ count: Int, levels: Int, in folder: URL) throws -> URL {
        let representations = (1...levels).map { #"<Representation id="r\#($0)" bandwidth="\#(1000 * $0)"/>"# }.joined()
        try Self.write("media", "one.m4s", in: folder)
        return try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT\(count)S"><Period><AdaptationSet contentType="video">
            <SegmentTemplate media="one.m4s" duration="1"/>
            \(representations)
            </AdaptationSet></Period></MPD>
            """, "many.mpd", in: folder)
    }

    /// A 700-byte MPD of 12 Representations × 863,990 segments is over the video's cap: refused
    /// from the counts, before any file is named, in well under a second of work.
    @Test func anMPDOverTheSizeCapIsRefusedFromItsCounts() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.manySegments(863_990, levels: 12, in: folder)
        let expected = "abrlab: \(mpd.path):2: Representation 'r1': 863990 segments × 12 Representations is over the 10000000 segment sizes a video may hold\n"
        for arguments in [["videos", "import", mpd.path, "--out", folder.appendingPathComponent("video.json").path],
                          Self.compare(video: mpd.path, out: folder.appendingPathComponent("results"))] {
            let start = Date()
            let result = try Self.bounded(arguments)
            #expect(Date().timeIntervalSince(start) < 5, "\(arguments)")
            #expect(result.status == 1)
            #expect(result.stderr == expected)
        }
    }

    /// Segments that all name one file read it once: 200,000 of them load in seconds, where
    /// every segment's path was resolved and its file opened.
    @Test func segmentsNamingOneFileReadItOnce() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mpd = try Self.manySegments(200_000, levels: 2, in: folder)
        let start = Date()
        let result = try Self.bounded(["videos", "import", mpd.path, "--out", folder.appendingPathComponent("video.json").path])
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2 levels, 200000 segments"))
    }

    /// A value of a megabyte from the MPD (an id, an attribute, a path made of them) is cut to a
    /// few dozen characters in the one line that quotes it.
    @Test(arguments: [
        #"<Representation id="ID" bandwidth="1000"><SegmentTemplate media="$RepresentationID$/seg-$Number$.m4s" duration="1"/></Representation>"#,
        #"<Representation id="a" bandwidth="ID"><SegmentTemplate media="seg.m4s" duration="1"/></Representation>"#,
        #"<SegmentTemplate media="seg.m4s" duration="1"/><Representation id="ID" bandwidth="1"/><Representation id="ID2" bandwidth="1"/>"#,
    ])
    func aHugeQuotedValueIsCut(representations: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = String(repeating: "7", count: 1 << 20)
        let mpd = try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT2S"><Period><AdaptationSet contentType="video">
            \(representations.replacingOccurrences(of: "ID", with: huge))
            </AdaptationSet></Period></MPD>
            """, "manifest.mpd", in: folder)
        try Self.write("segment", "seg.m4s", in: folder)
        let result = try CLI.run(["videos", "import", mpd.path, "--out", folder.appendingPathComponent("video.json").path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("abrlab: \(mpd.path):2: "))
        #expect(result.stderr.utf8.count < 600, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("7…7"))
    }
}
