import ABRLab
import ABRLabFormats
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct VideoPresetTests {
    @Test func pensieveLadderIsPublic() {
        #expect(VideoPreset.pensieveLadderKbps == [300, 750, 1200, 1850, 2850, 4300])
        #expect(VideoPreset.pensieveLadder.map(\.label) == ["300k", "750k", "1200k", "1850k", "2850k", "4300k"])
        #expect(VideoPreset.pensieveLadder.map(\.bitrate) == [300_000, 750_000, 1_200_000, 1_850_000, 2_850_000, 4_300_000])
        #expect(VideoPreset.pensieveSegmentDurationSeconds == 4)
    }

    @Test(arguments: VideoPreset.allCases)
    func presetsAreCBRVideosNamedAfterThemselves(preset: VideoPreset) throws {
        let video = try preset.video()
        #expect(video.name == preset.rawValue)
        #expect(video.segmentCount == 48)
        let expected: (seconds: Double, ladder: [BitrateLevel]) = switch preset {
        case .standard: (4, BitrateLevel.standardLevels)
        case .pensieveCBR: (4, VideoPreset.pensieveLadder)
        case .twitchLL: (0.5, [200, 600, 1000].map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") })
        }
        #expect(video.segmentDurationSeconds == expected.seconds)
        #expect(video.ladder == expected.ladder)
        for (level, bitrate) in video.ladder.enumerated() {
            #expect(Double(video.sizeBytes(segment: 47, level: level)) == Double(bitrate.bitrate) * expected.seconds / 8)
        }
    }

    @Test func presetsTakeADifferentLengthOrDuration() throws {
        let video = try VideoPreset.standard.video(segmentCount: 10, segmentDurationSeconds: 2)
        #expect(video.segmentCount == 10)
        #expect(video.sizeBytes(segment: 0, level: 0) == 125_000)
    }
}
