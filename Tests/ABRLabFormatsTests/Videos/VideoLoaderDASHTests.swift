import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// MPDs written here, with media of known sizes: inheritance, template identifiers, timelines
/// and the errors that name the MPD's line.
@Suite(.tags(.core), .selectedByTags) struct VideoLoaderDASHTests {
    /// A folder holding `files` (path → size in bytes) and `manifest.mpd` with `mpd`.
    static func folder(mpd: String, files: [String: Int]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, size) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: size).write(to: url)
        }
        try mpd.write(to: folder.appendingPathComponent("manifest.mpd"), atomically: true, encoding: .utf8)
        return folder
    }

    static func load(mpd: String, files: [String: Int]) throws(InputError) -> (MPDLoadedVideo, URL) {
        let folder: URL
        do { folder = try self.folder(mpd: mpd, files: files) } catch { fatalError("cannot write the test's files: \(error)") }
        do {
            return (try VideoLoader.loadMPD(folder.appendingPathComponent("manifest.mpd")), folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    @Test func templateIdentifiersInheritanceAndAShortLastSegment() throws {
        // 4.5 s of 2 s segments: three, the last 0.5 s; the template sits on the Adaptation Set.
        let mpd = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT0H0M4.500S">
              <BaseURL>media/</BaseURL>
              <Period>
                <AdaptationSet mimeType="video/mp4">
                  <SegmentTemplate timescale="90000" duration="180000" startNumber="0" media="$Bandwidth$/$RepresentationID$-$Number%03d$-$$.m4s"/>
                  <Representation id="hi" bandwidth="900000" height="720"/>
                  <Representation id="lo" bandwidth="300000" height="360"><BaseURL>low/</BaseURL></Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """
        var files: [String: Int] = [:]
        for number in 0..<3 {
            files["media/900000/hi-00\(number)-$.m4s"] = 1000 + number
            files["media/low/300000/lo-00\(number)-$.m4s"] = 100 + number
        }
        let (loaded, folder) = try Self.load(mpd: mpd, files: files)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(loaded.video.bitratesKbps == [300, 900])
        #expect(loaded.video.ladder.map(\.label) == ["360p", "720p"])
        #expect(loaded.video.segmentDurationSeconds == 2)
        #expect(loaded.video.segmentCount == 3)
        #expect((0..<3).map { loaded.video.sizeBytes(segment: $0, level: 0) } == [100, 101, 102])
        #expect((0..<3).map { loaded.video.sizeBytes(segment: $0, level: 1) } == [1000, 1001, 1002])
        #expect(loaded.representationIDs == ["lo", "hi"])
        // Played as a whole one, and said so.
        #expect(loaded.warnings.map(\.message) == [
            "the last segment, 3, lasts 0.5 s and the others 2 s; abrlab's videos have one segment duration, so it is played as a whole 2 s segment of its own size",
        ])
    }

    @Test func aTimelineRepeatsToThePeriodsEnd() throws {
        let mpd = """
            <MPD><Period duration="PT3S"><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="500"><SegmentTemplate timescale="10" media="t$Time$.m4s">
            <SegmentTimeline><S t="5" d="10" r="-1"/></SegmentTimeline></SegmentTemplate></Representation>
            </AdaptationSet></Period></MPD>
            """
        let (loaded, folder) = try Self.load(mpd: mpd, files: ["t5.m4s": 10, "t15.m4s": 20, "t25.m4s": 30])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(loaded.video.segmentCount == 3)
        #expect((0..<3).map { loaded.video.sizeBytes(segment: $0, level: 0) } == [10, 20, 30])
        #expect(loaded.addressing == ["SegmentTemplate"])
    }

    @Test(arguments: [
        (#"<SegmentTemplate media="$SubNumber$.m4s" duration="1"/>"#, "manifest.mpd:3: SegmentTemplate media=\"$SubNumber$.m4s\" has $SubNumber$; abrlab knows $RepresentationID$, $Number$, $Bandwidth$ and $Time$"),
        (#"<SegmentTemplate media="$Number.m4s" duration="1"/>"#, "manifest.mpd:3: SegmentTemplate media=\"$Number.m4s\" has a $ without its closing $ (write $$ for a dollar sign)"),
        (#"<SegmentTemplate media="$Time$.m4s" duration="1"/>"#, "manifest.mpd:3: SegmentTemplate media uses $Time$, which needs a SegmentTimeline"),
        (#"<SegmentTemplate media="a.m4s"/>"#, "manifest.mpd:3: SegmentTemplate has neither @duration nor a SegmentTimeline, so its segments have no duration"),
        (#"<SegmentTemplate media="a.m4s" duration="1" timescale="0"/>"#, "manifest.mpd:3: SegmentTemplate timescale must be above 0"),
        (#"<SegmentTemplate media="a.m4s" duration="1"><SegmentTimeline><S d="1" r="2147483647"/></SegmentTimeline></SegmentTemplate>"#, "manifest.mpd:3: more than 864000 segments in one Representation"),
        (#"<SegmentList duration="1"/>"#, "manifest.mpd:3: SegmentList lists no SegmentURL; the Representation has no segments"),
        (#"<SegmentList duration="1"><SegmentURL mediaRange="9-1"/></SegmentList>"#, "manifest.mpd:3: SegmentURL mediaRange=\"9-1\" is not a byte range such as 0-999 (first byte, then last byte, at least the first)"),
    ])
    func badAddressingIsOneLineAtItsElement(addressing: String, expected: String) {
        let mpd = "<MPD>\n<Period duration=\"PT4S\"><AdaptationSet contentType=\"video\">\n<Representation id=\"v\" bandwidth=\"500\">\(addressing)</Representation></AdaptationSet></Period></MPD>"
        let error = #expect(throws: InputError.self) { try Self.load(mpd: mpd, files: ["a.m4s": 1]) }
        #expect(error.map { $0.description.hasSuffix(expected) } == true, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        ("<MPD mediaPresentationDuration=\"P1Y\"><Period/></MPD>", "manifest.mpd:1: MPD mediaPresentationDuration=\"P1Y\" counts years or months, which have no fixed length; give days, hours, minutes and seconds"),
        ("<MPD><Period/><Period/></MPD>", "manifest.mpd:1: a second Period; abrlab reads MPDs of one Period"),
        ("<mpd/>", "manifest.mpd:1: the root element is mpd, not MPD"),
        ("<MPD><Period><AdaptationSet contentType=\"video\" xlink:href=\"x\"/></Period></MPD>", "manifest.mpd:1: AdaptationSet is a remote element (xlink:href); abrlab reads whole MPDs from disk"),
        ("<MPD><Period><AdaptationSet contentType=\"video\"><Representation id=\"a\" bandwidth=\"5\"><SegmentBase/></Representation><Representation id=\"b\" bandwidth=\"5\"><SegmentBase/></Representation></AdaptationSet></Period></MPD>",
         "manifest.mpd:1: Representations 'a' (line 1) and 'b' have the same bandwidth 5; a ladder needs distinct bitrates"),
        ("<MPD><Period><AdaptationSet contentType=\"video\"><Representation id=\"a\" bandwidth=\"5\"><SegmentBase/></Representation></AdaptationSet></Period></MPD>",
         "manifest.mpd:1: Representation 'a': no BaseURL names its media file"),
    ])
    func badManifestsAreOneLine(mpd: String, expected: String) {
        let error = #expect(throws: InputError.self) { try Self.load(mpd: mpd, files: [:]) }
        #expect(error.map { $0.description.hasSuffix(expected) } == true, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        ("", "manifest.mpd:1: column 1: malformed XML (the document is empty)"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE MPD [<!ENTITY a \"b\">]>\n<MPD/>", "manifest.mpd:2: column 1: malformed XML (a DOCTYPE is not allowed in an MPD; entities are not expanded)"),
        ("<MPD>\n  <Period a=b/>\n</MPD>", "manifest.mpd:2: column 13: malformed XML (an attribute value is not quoted)"),
        ("<MPD a=\"1\" a=\"2\"/>", "manifest.mpd:1: column 12: malformed XML (the attribute a is given twice)"),
        ("<MPD a=\"1\"b=\"2\"/>", "manifest.mpd:1: column 11: malformed XML (attributes must be separated by spaces)"),
        ("<MPD a=\"x<y\"/>", "manifest.mpd:1: column 10: malformed XML (a < inside an attribute value)"),
        ("<MPD>&nbsp;</MPD>", "manifest.mpd:1: column 6: malformed XML (an entity reference is not valid (write &amp; for &))"),
        ("<MPD><!-- open", "manifest.mpd:1: column 15: malformed XML (a comment is not closed)"),
        ("<MPD>\n<Period>", "manifest.mpd:2: column 9: malformed XML (the document ends inside <Period>)"),
        ("<MPD/>\n<MPD/>", "manifest.mpd:2: column 1: malformed XML (content follows the root element)"),
        ("text", "manifest.mpd:1: column 1: malformed XML (the document does not start with an element)"),
    ])
    func malformedXMLNamesLineAndColumn(mpd: String, expected: String) {
        let error = #expect(throws: InputError.self) { try Self.load(mpd: mpd, files: [:]) }
        #expect(error.map { $0.description.hasSuffix(expected) } == true, "\(error?.description ?? "")")
    }

    @Test func xmlCommentsCDATAEntitiesAndPrefixesReadAsWritten() throws {
        let mpd = "\u{FEFF}<?xml version=\"1.0\"?><!-- made by hand -->\n<dash:MPD xmlns:dash=\"urn:mpeg:dash:schema:mpd:2011\" "
            + "mediaPresentationDuration='PT2S'><dash:Period><dash:AdaptationSet contentType=\"video\">"
            + "<dash:BaseURL><![CDATA[a&b]]>&#x2F;</dash:BaseURL><dash:Representation id=\"r&amp;1\" bandwidth=\"100\">"
            + "<dash:SegmentTemplate media=\"$RepresentationID$-$Number$.m4s\" duration=\"1\"/></dash:Representation>"
            + "</dash:AdaptationSet></dash:Period></dash:MPD>\n<!-- end -->\n"
        let (loaded, folder) = try Self.load(mpd: mpd, files: ["a&b/r&1-1.m4s": 5, "a&b/r&1-2.m4s": 6])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect((0..<2).map { loaded.video.sizeBytes(segment: $0, level: 0) } == [5, 6])
        #expect(loaded.representationIDs == ["r&1"])
    }

    @Test func aSegmentIndexBoxParsesBothVersions() throws {
        func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        let version0 = u32(44) + Array("sidx".utf8) + u32(0) + u32(1) + u32(1000) + u32(7) + u32(3) + [0, 0, 0, 1] + u32(500) + u32(2000) + u32(0)
        let parsed = try SegmentIndexBox.parse(version0).get()
        #expect(parsed.timescale == 1000 && parsed.earliestPresentationTimeTicks == 7 && parsed.firstOffsetBytes == 3)
        #expect(parsed.references.map(\.sizeBytes) == [500] && parsed.references.map(\.durationTicks) == [2000])
        #expect(parsed.references.first?.referencesIndex == false && parsed.boxSizeBytes == 44)
        let version1 = u32(52) + Array("sidx".utf8) + [1, 0, 0, 0] + u32(1) + u32(90000) + u32(0) + u32(9) + u32(0) + u32(0)
            + [0, 0, 0, 1] + u32(0x8000_0010) + u32(90000) + u32(0)
        let hierarchical = try SegmentIndexBox.parse(version1).get()
        #expect(hierarchical.earliestPresentationTimeTicks == 9 && hierarchical.references.first?.referencesIndex == true)
        #expect(throws: SegmentIndexBoxError.truncated) { try SegmentIndexBox.parse(Array(version0.dropLast())).get() }
        #expect(throws: SegmentIndexBoxError.notASegmentIndex(found: "moof")) {
            try SegmentIndexBox.parse(u32(8) + Array("moof".utf8)).get()
        }
    }
}
