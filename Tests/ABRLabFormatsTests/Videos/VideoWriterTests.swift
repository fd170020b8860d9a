import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct VideoWriterTests {
    @Test func writesSabreLayout() throws {
        let video = try Video(
            name: "v", segmentDurationSeconds: 2.5, ladder: VideoLoader.ladder(kbps: [230, 1850.5], file: "v"),
            sizesBytes: [[10, 20], [30, 40]]
        )
        #expect(VideoWriter.sabreManifestText(video) == """
            {
                "segment_duration_ms": 2500,
                "bitrates_kbps": [ 230, 1850.5 ],
                "segment_sizes_bits": [
                    [ 80, 160 ],
                    [ 240, 320 ]
                ]
            }

            """)
    }

    @Test func roundTripsThroughAFile() throws {
        let fixtures = try FixtureDirectory()
        let original = try Video(
            name: "generated", segmentDurationSeconds: 0.1, ladder: VideoLoader.ladder(kbps: [300, 750, 1200], file: "g"),
            sizesBytes: [[100, 200, 300], [110, 210, 310]]
        )
        let url = fixtures.url.appendingPathComponent("generated.json")
        try VideoWriter.writeSabreManifest(original, to: url)
        #expect(try VideoLoader.load(url) == original)
    }

    @Test(arguments: VideoPreset.allCases)
    func presetsRoundTripExceptLabels(preset: VideoPreset) throws {
        let original = try preset.video()
        let loaded = try VideoLoader.parseSabreManifest(VideoWriter.sabreManifestText(original), file: "p.json", name: "p")
        #expect(loaded.bitratesKbps == original.bitratesKbps)
        #expect(loaded.segmentDurationSeconds == original.segmentDurationSeconds)
        #expect(loaded.segmentCount == original.segmentCount)
        for segment in 0..<original.segmentCount {
            for level in 0..<original.levelCount {
                #expect(loaded.sizeBytes(segment: segment, level: level) == original.sizeBytes(segment: segment, level: level))
            }
        }
    }
}
