import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core, .datasets), .selectedByTags, .needsDatasets)
struct VideoDatasetTests {
    @Test func loadsSabreMovie() throws {
        let video = try VideoLoader.load(Datasets.url("sabre/movie.json").path)
        #expect(video.name == "movie")
        #expect(video.levelCount == 10)
        #expect(video.segmentCount == 199)
        #expect(video.segmentDurationSeconds == 3)
        #expect(video.bitratesKbps == [230, 331, 477, 688, 991, 1427, 2056, 2962, 5027, 6000])
        #expect(video.sizeBytes(segment: 0, level: 0) == 886_360 / 8)
        #expect(video.sizeBytes(segment: 0, level: 9) == 20_657_480 / 8)
        #expect(try VideoLoader.load(Datasets.url("sabre/mmsys18/bbb.json")).bitratesKbps == video.bitratesKbps)
    }

    @Test func loadsSabre4KMovie() throws {
        let video = try VideoLoader.load(Datasets.url("sabre/mmsys18/bbb4k.json"))
        #expect(video.levelCount == 6)
        #expect(video.segmentCount == 199)
        #expect(video.bitratesKbps.first == 1000)
        #expect(video.bitratesKbps.last == 35000)
    }

    @Test func loadsPensieveVideoSizes() throws {
        let folder = Datasets.url("pensieve/video_sizes")
        let video = try VideoLoader.load(folder.path)
        #expect(video.name == "video_sizes")
        #expect(video.levelCount == 6)
        #expect(video.segmentCount == 49)
        #expect(video.segmentDurationSeconds == 4)
        #expect(video.ladder == VideoPreset.pensieveLadder)
        for level in 0..<6 {
            let text = try String(contentsOf: folder.appendingPathComponent("video_size_\(level)"), encoding: .utf8)
            let sizes = text.split(separator: "\n").compactMap { Int($0) }
            #expect((0..<49).map { video.sizeBytes(segment: $0, level: level) } == sizes)
        }
    }

    @Test func sabreMovieSurvivesTheWriter() throws {
        let video = try VideoLoader.load(Datasets.url("sabre/movie.json"))
        let copy = try VideoLoader.parseSabreManifest(VideoWriter.sabreManifestText(video), file: "movie.json", name: "movie")
        #expect(copy == video)
    }
}
