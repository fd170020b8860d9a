import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct VideoLoaderPensieveTests {
    /// A folder `sizes` with one file per level; `levels[level]` is that file's text.
    static func folder(_ fixtures: FixtureDirectory, _ levels: [String]) throws -> URL {
        let folder = try fixtures.folder("sizes")
        for (level, text) in levels.enumerated() { try fixtures.write("sizes/video_size_\(level)", text) }
        return folder
    }

    static func error(_ body: () throws(InputError) -> Video) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsOneFilePerLevel() throws {
        let fixtures = try FixtureDirectory()
        let folder = try Self.folder(fixtures, ["100\n110\n120\n", "200\n210\n220\n", "300\n310\n320"])
        try fixtures.write("sizes/README", "not a size file")
        let video = try VideoLoader.load(folder.path, ladderKbps: [300, 750, 1200])
        #expect(video.name == "sizes")
        #expect(video.segmentCount == 3)
        #expect(video.segmentDurationSeconds == 4)
        #expect(video.ladder.map(\.label) == ["300k", "750k", "1200k"])
        #expect(video.sizeBytes(segment: 0, level: 0) == 100)
        #expect(video.sizeBytes(segment: 1, level: 2) == 310)
        #expect(video.sizeBytes(segment: 2, level: 1) == 220)
        #expect(try VideoLoader.load(folder, ladderKbps: [1, 2, 3], segmentDurationSeconds: 2).segmentDurationSeconds == 2)
    }

    @Test func sixLevelsGetPensieveLadderByDefault() throws {
        let fixtures = try FixtureDirectory()
        let folder = try Self.folder(fixtures, Array(repeating: "5\n6\n", count: 6))
        let video = try VideoLoader.loadPensieveSizes(folder)
        #expect(video.ladder == VideoPreset.pensieveLadder)
        #expect(video.segmentCount == 2)
    }

    @Test func rejectsBadFolders() throws {
        let fixtures = try FixtureDirectory()
        let folder = try Self.folder(fixtures, ["1\n2\n3\n", "1\n2\n", "1\n2\n3\n"])
        let sizes = folder.path
        #expect(Self.error { () throws(InputError) in try VideoLoader.load(sizes, ladderKbps: [1, 2]) }
            == "\(sizes): has 3 video_size files but the ladder has 2 bitrates")
        #expect(Self.error { () throws(InputError) in try VideoLoader.load(sizes) }
            == "\(sizes): has 3 video_size files; give a ladder of 3 bitrates (only a folder of 6 gets Pensieve's ladder by default)")
        #expect(Self.error { () throws(InputError) in try VideoLoader.load(sizes, ladderKbps: [1, 2, 3]) }
            == "\(sizes)/video_size_1: lists 2 segments but video_size_0 lists 3")
        #expect(Self.error { () throws(InputError) in try VideoLoader.load(sizes, ladderKbps: [3, 2, 1]) }
            == "\(sizes): bitrates must ascend, but 2k follows 3k")
        #expect(Self.error { () throws(InputError) in try VideoLoader.load(sizes, ladderKbps: [1, 2, 3], segmentCount: 3) }
            == "\(sizes): a segment count applies only to presets and cbr: specs, not to sizes read from files")
    }

    @Test(arguments: [
        ("1\n12.5\n", "video_size_1:2: size '12.5' is not a whole number"),
        ("1\n0\n", "video_size_1:2: size is 0 bytes; it must be > 0"),
        ("1\n-4\n", "video_size_1:2: size is -4; it must be ≥ 0"),
        ("1 2\n3\n", "video_size_1:1: expected 1 field (a size in bytes), found 2"),
        ("\n", "video_size_1: the file lists no sizes"),
    ])
    func rejectsBadSizeFiles(text: String, expected: String) throws {
        let fixtures = try FixtureDirectory()
        let folder = try Self.folder(fixtures, ["1\n2\n", text])
        #expect(Self.error { () throws(InputError) in try VideoLoader.loadPensieveSizes(folder, ladderKbps: [1, 2]) }
            == "\(folder.path)/\(expected)")
    }

    @Test func rejectsGapsAndEmptyFolders() throws {
        let fixtures = try FixtureDirectory()
        let empty = try fixtures.folder("empty")
        #expect(Self.error { () throws(InputError) in try VideoLoader.loadPensieveSizes(empty) }?
            .hasPrefix("\(empty.path): has no video_size_N files; a video is a Sabre manifest") == true)
        let gapped = try fixtures.folder("gapped")
        try fixtures.write("gapped/video_size_0", "1\n")
        try fixtures.write("gapped/video_size_2", "1\n")
        #expect(Self.error { () throws(InputError) in try VideoLoader.loadPensieveSizes(gapped, ladderKbps: [1, 2]) }
            == "\(gapped.path): video_size_1 is missing (found levels 0, 2)")
    }
}
