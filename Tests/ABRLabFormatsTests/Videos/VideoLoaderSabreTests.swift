import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct VideoLoaderSabreTests {
    static let manifest = """
        {
            "segment_duration_ms": 3000,
            "bitrates_kbps": [ 230, 331 ],
            "segment_sizes_bits": [
                [ 886360, 1180512 ],
                [ 382840, 1001 ]
            ]
        }
        """

    static func error(_ text: String) -> String? {
        do {
            _ = try VideoLoader.parseSabreManifest(text, file: "m.json", name: "m")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsSizesInBytesRoundingUp() throws {
        let video = try VideoLoader.parseSabreManifest(Self.manifest, file: "m.json", name: "m")
        #expect(video.name == "m")
        #expect(video.segmentDurationSeconds == 3)
        #expect(video.bitratesKbps == [230, 331])
        #expect(video.ladder.map(\.label) == ["230k", "331k"])
        #expect(video.segmentCount == 2)
        #expect(video.sizeBytes(segment: 0, level: 0) == 110_795)
        #expect(video.sizeBytes(segment: 0, level: 1) == 147_564)
        #expect(video.sizeBytes(segment: 1, level: 1) == 126)
    }

    @Test func loadsFromPathsAndChecksGivenValues() throws {
        let fixtures = try FixtureDirectory()
        let url = try fixtures.write("bbb.json", Self.manifest)
        let video = try VideoLoader.load(url.path)
        #expect(video.name == "bbb")
        #expect(try VideoLoader.load(url.path, ladderKbps: [230, 331], segmentDurationSeconds: 3) == video)
        #expect(throws: InputError(file: url.path, "the manifest's segment duration 3 s differs from the given 4 s")) {
            try VideoLoader.load(url.path, segmentDurationSeconds: 4)
        }
        #expect(throws: InputError(file: url.path, "the manifest's ladder [230, 331] kbps differs from the given [1, 2] kbps")) {
            try VideoLoader.load(url, ladderKbps: [1, 2])
        }
        let sizes = try fixtures.write("video_size_0", "181801\n155580\n")
        #expect(throws: InputError(
            file: sizes.path, "is neither a Sabre manifest (a JSON object) nor a folder; a video is \(VideoLoader.specHelp)"
        )) {
            try VideoLoader.load(sizes)
        }
        let missing = fixtures.url.appendingPathComponent("nope.json").path
        #expect(throws: InputError(file: missing, "no such file or folder; a video is \(VideoLoader.specHelp)")) {
            try VideoLoader.load(missing)
        }
    }

    @Test(arguments: [
        ("[1]", "m.json:1: a Sabre manifest must be an object, not an array"),
        (#"{"bitrates_kbps": [1], "segment_sizes_bits": [[8]]}"#, "m.json:1: the manifest has no segment_duration_ms"),
        (#"{"segment_duration_ms": 1, "segment_sizes_bits": [[8]]}"#, "m.json:1: the manifest has no bitrates_kbps"),
        (#"{"segment_duration_ms": 1, "bitrates_kbps": [1]}"#, "m.json:1: the manifest has no segment_sizes_bits"),
        (#"{"segment_duration_ms": 1, "bitrates_kbps": [1], "segment_sizes_bits": []}"#, "m.json:1: segment_sizes_bits lists no segments"),
        (#"{"segment_duration_ms": -1}"#, "m.json:1: segment_duration_ms is -1; it must be > 0"),
        (
            "{\n\"segment_duration_ms\": 1,\n\"bitrates_kbps\": [1, 2],\n\"segment_sizes_bits\": [\n[8, 8],\n[8]\n]}",
            "m.json:6: segment_sizes_bits[1] has 1 sizes for 2 bitrates"
        ),
        (
            "{\"segment_duration_ms\": 1, \"bitrates_kbps\": [1],\n\"segment_sizes_bits\": [[8],\n [0]]}",
            "m.json:3: segment_sizes_bits[1][0] is 0; it must be > 0"
        ),
        (#"{"segment_duration_ms": 1, "bitrates_kbps": [1], "segment_sizes_bits": [["8"]]}"#, "m.json:1: segment_sizes_bits[0][0] must be a number, not a string"),
        (#"{"segment_duration_ms": 1, "bitrates_kbps": [1], "segment_sizes_bits": [8]}"#, "m.json:1: segment_sizes_bits[0] must be an array, not a number"),
        ("{\n\"bitrates_kbps\": [2, 1]}", "m.json:2: bitrates must ascend, but 1k follows 2k"),
        ("{\n\"bitrates_kbps\": [true]}", "m.json:2: bitrates_kbps[0] must be a number, not a boolean"),
        (
            "{\n\"name\": \"bbb\"}",
            "m.json:2: unknown key \"name\"; a Sabre manifest has segment_duration_ms, bitrates_kbps and segment_sizes_bits, "
                + "and optionally segment_vmaf, segment_ssim and source"
        ),
        ("{\n\"segment_duration_ms\": 1,\n}", "m.json:3: unexpected '}'; expected a quoted key"),
    ])
    func rejectsBadManifests(text: String, expected: String) {
        #expect(Self.error(text) == expected)
    }
}
