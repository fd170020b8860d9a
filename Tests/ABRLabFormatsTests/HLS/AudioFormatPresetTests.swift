import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct AudioFormatPresetTests {
    @Test func laddersTheFourFormatsAscending() throws {
        let video = try AudioFormatPreset.video(segmentCount: 10)
        #expect(video.name == "audio")
        #expect(video.formats == ["LOW", "HIGH", "LOSSLESS", "HI_RES_LOSSLESS"])
        #expect(video.ladder.map(\.label) == ["LOW", "HIGH", "LOSSLESS", "HI_RES_LOSSLESS"])
        #expect(video.bitratesKbps == [128, 320, 1000, 3000])
        #expect(video.segmentDurationSeconds == 4)
        #expect(video.segmentCount == 10)
        #expect(video.sizeBytes(segment: 9, level: 1) == 160_000)
        #expect(AudioFormat.allCases.map(\.formatString) == ["LOW", "HIGH", "LOSSLESS", "HI_RES_LOSSLESS"])
        #expect(AudioFormat.lossless.codecDescription == "FLAC, 16-bit/44.1 kHz")
    }
}
