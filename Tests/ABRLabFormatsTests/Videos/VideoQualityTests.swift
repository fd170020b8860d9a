import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// Per-segment VMAF and SSIM: read from a Sabre-style manifest, written back, checked, and seen
/// by native strategies through `context.video`.
@Suite(.tags(.core), .selectedByTags) struct VideoQualityTests {
    static let manifest = """
        {
            "segment_duration_ms": 4000,
            "bitrates_kbps": [ 300, 1200 ],
            "segment_sizes_bits": [ [ 1200000, 4800000 ], [ 1200000, 4800000 ], [ 1200000, 4800000 ] ],
            "segment_vmaf": [ [ 41.5, 88 ], [ 60, 97.25 ], [ 12, 30 ] ],
            "segment_ssim": [ [ 0.91, 0.985 ], [ 0.95, 0.99 ], [ 0.8, 0.87 ] ]
        }
        """

    @Test func readsQualityPerSegmentAndLevel() throws {
        let video = try VideoLoader.parseSabreManifest(Self.manifest, file: "q.json", name: "q")
        #expect(video.qualityMetrics == [.vmaf, .ssim])
        #expect(video.quality(.vmaf, segment: 0, level: 0) == 41.5)
        #expect(video.quality(.vmaf, segment: 1, level: 1) == 97.25)
        #expect(video.quality(.ssim, segment: 2, level: 1) == 0.87)
        #expect(video.quality(.vmaf, segment: 3, level: 0) == nil)
        #expect(video.quality(.vmaf, segment: 0, level: 2) == nil)
        #expect(video.qualityScores(.vmaf) == [41.5, 88, 60, 97.25, 12, 30])
        let plain = try VideoLoader.parseSabreManifest(VideoLoaderSabreTests.manifest, file: "m.json", name: "m")
        #expect(plain.qualityMetrics == [])
        #expect(plain.quality(.vmaf, segment: 0, level: 0) == nil)
    }

    @Test func writesQualityBackExactly() throws {
        let video = try VideoLoader.parseSabreManifest(Self.manifest, file: "q.json", name: "q")
        let text = VideoWriter.sabreManifestText(video)
        #expect(text.contains("\"segment_vmaf\": [\n        [ 41.5, 88 ],"))
        #expect(try VideoLoader.parseSabreManifest(text, file: "q.json", name: "q") == video)
        let onlySSIM = try Video(
            name: "s", segmentDurationSeconds: 2, ladder: video.ladder, sizesBytes: [[10, 20]], quality: [.ssim: [[0.5, 0.75]]]
        )
        let again = try VideoLoader.parseSabreManifest(VideoWriter.sabreManifestText(onlySSIM), file: "s.json", name: "s")
        #expect(again == onlySSIM)
        #expect(again.qualityMetrics == [.ssim])
    }

    static let base = "{\"segment_duration_ms\": 1, \"bitrates_kbps\": [1, 2], \"segment_sizes_bits\": [[8, 8], [8, 8]],\n"

    @Test(arguments: [
        (base + "\"segment_vmaf\": [[1, 2]]}", "q.json:2: segment_vmaf has 1 segments but segment_sizes_bits has 2"),
        (base + "\"segment_vmaf\": [[1, 2],\n [3]]}", "q.json:3: segment_vmaf[1] has 1 scores for 2 bitrates"),
        (base + "\"segment_vmaf\": [[1, 2],\n [3, 100.5]]}", "q.json:3: segment_vmaf[1][1] is 100.5; vmaf scores lie in 0…100"),
        (base + "\"segment_ssim\": [[0.5, 1.5], [1, 1]]}", "q.json:2: segment_ssim[0][1] is 1.5; ssim scores lie in -1…1"),
        (base + "\"segment_ssim\": [[0.5, \"x\"], [1, 1]]}", "q.json:2: segment_ssim[0][1] must be a number, not a string"),
        (base + "\"segment_psnr\": [[1, 2], [3, 4]]}",
         "q.json:2: unknown key \"segment_psnr\"; a Sabre manifest has segment_duration_ms, bitrates_kbps and segment_sizes_bits, and optionally segment_vmaf, segment_ssim and source"),
    ])
    func rejectsBadQuality(text: String, expected: String) {
        do {
            _ = try VideoLoader.parseSabreManifest(text, file: "q.json", name: "q")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func theInitializerChecksShapeAndRange() throws {
        let ladder = [BitrateLevel(bitrate: 1000, label: "a")]
        #expect(throws: InputError(file: "v", "segment_vmaf has 2 segments but the sizes have 1")) {
            try Video(name: "v", segmentDurationSeconds: 1, ladder: ladder, sizesBytes: [[1]], quality: [.vmaf: [[1], [2]]])
        }
        #expect(throws: InputError(file: "v", "segment_vmaf[0][0] is nan; vmaf scores lie in 0…100")) {
            try Video(name: "v", segmentDurationSeconds: 1, ladder: ladder, sizesBytes: [[1]], quality: [.vmaf: [[.nan]]])
        }
    }

    /// A native strategy reads quality through `context.video`: the lowest level whose VMAF
    /// reaches a target.
    struct VMAFTarget: SessionStrategy {
        var target: Double
        mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
            (0..<context.video.levelCount).first {
                (context.video.quality(.vmaf, segment: context.segmentIndex, level: $0) ?? 0) >= target
            } ?? context.video.levelCount - 1
        }
    }

    @Test func nativeStrategiesSeeQualityThroughTheContext() throws {
        let video = try VideoLoader.parseSabreManifest(Self.manifest, file: "q.json", name: "q")
        let trace = try NetworkTrace(name: "fast", periodEndSeconds: [1], bandwidthBitsPerSecond: [50_000_000])
        let result = try SessionEmulator(profile: .default).run(strategy: VMAFTarget(target: 50), strategyID: "vmaf", trace: trace, video: video)
        #expect(result.segments.map(\.level) == [1, 0, 1])
    }
}
