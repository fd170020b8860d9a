import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SyntheticVideoGeneratorTests {
    static func generator(seed: UInt64 = 1, _ edit: (inout SyntheticVideoGenerator) -> Void = { _ in }) -> SyntheticVideoGenerator {
        var generator = SyntheticVideoGenerator()
        generator.seed = seed
        edit(&generator)
        return generator
    }

    static func sizes(_ video: Video) -> [[Int]] {
        (0..<video.segmentCount).map { segment in (0..<video.levelCount).map { video.sizeBytes(segment: segment, level: $0) } }
    }

    @Test func sameSeedGivesTheSameVideo() throws {
        let first = try Self.generator(seed: 9).generate(name: "v")
        let second = try Self.generator(seed: 9).generate(name: "v")
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentSizes() throws {
        let videos = try (1...5).map { try Self.sizes(Self.generator(seed: UInt64($0)).generate(name: "v")) }
        #expect(Set(videos).count == 5)
    }

    @Test func theLadderAndSegmentsFollowTheParameters() throws {
        let video = try Self.generator {
            $0.ladderKbps = [250, 1000.5, 3000]
            $0.segmentDurationSeconds = 2
            $0.segmentCount = 7
        }.generate(name: "clip")
        #expect(video.name == "clip")
        #expect(video.segmentCount == 7)
        #expect(video.segmentDurationSeconds == 2)
        #expect(video.ladder.map(\.bitrate) == [250_000, 1_000_500, 3_000_000])
        #expect(video.ladder.map(\.label) == ["250k", "1000.5k", "3000k"])
    }

    @Test(arguments: [1, 48, 500])
    func segmentCountIsHonoured(count: Int) throws {
        #expect(try Self.generator { $0.segmentCount = count }.generate(name: "v").segmentCount == count)
    }

    @Test func withoutVariationSizesAreTheNominalBitrateTimesDuration() throws {
        let video = try Self.generator {
            $0.ladderKbps = [300, 750, 4300]
            $0.segmentDurationSeconds = 4
            $0.segmentCount = 3
            $0.complexitySpread = 0
            $0.levelNoise = 0
        }.generate(name: "v")
        // 300 kbps · 4 s / 8 = 150 000 bytes, and so on.
        #expect(Self.sizes(video) == Array(repeating: [150_000, 375_000, 2_150_000], count: 3))
    }

    @Test(arguments: [
        (seed: UInt64(1), ladder: [300.0, 750, 1200, 1850, 2850, 4300], noise: 0.05),
        (seed: 2, ladder: [1000, 1001, 1002], noise: 0.5),
        (seed: 3, ladder: [100, 110, 120, 130], noise: 2),
    ])
    func sizesStrictlyIncreaseAcrossLevels(seed: UInt64, ladder: [Double], noise: Double) throws {
        let video = try Self.generator(seed: seed) {
            $0.ladderKbps = ladder
            $0.segmentCount = 500
            $0.levelNoise = noise
            $0.complexitySpread = 1
        }.generate(name: "v")
        for row in Self.sizes(video) {
            #expect(zip(row, row.dropFirst()).allSatisfy { $0 < $1 }, "\(row)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func meanSizeIsCloseToTheNominalSize(seed: UInt64) throws {
        let generator = Self.generator(seed: seed) { $0.segmentCount = 2000 }
        let video = try generator.generate(name: "v")
        for (level, kbps) in generator.ladderKbps.enumerated() {
            let nominal = kbps * 1000 * generator.segmentDurationSeconds / 8
            let mean = Double((0..<video.segmentCount).reduce(0) { $0 + video.sizeBytes(segment: $1, level: level) }) / Double(video.segmentCount)
            // The log-normal complexity is mean-corrected; with correlation 0.7 the 2000
            // segments are worth about 350 independent ones, a standard error near 1.5 %.
            #expect(abs(mean / nominal - 1) < 0.06, "level \(level): \(mean) vs \(nominal)")
        }
    }

    @Test(arguments: [0.0, 0.9, 1.0])
    func firstSegmentsAreUnbiasedAcrossSeeds(correlation: Double) throws {
        // Averaged over many seeds, segment 0 should have the nominal size for any correlation:
        // the mean correction −σ²/2 assumes the log complexity has unit variance.
        var total = 0.0
        let seeds = 3000
        for seed in 1...seeds {
            let video = try Self.generator(seed: UInt64(seed)) {
                $0.ladderKbps = [800]
                $0.segmentDurationSeconds = 1
                $0.segmentCount = 1
                $0.complexitySpread = 0.8
                $0.complexityCorrelation = correlation
                $0.levelNoise = 0
            }.generate(name: "v")
            total += Double(video.sizeBytes(segment: 0, level: 0))
        }
        let ratio = total / Double(seeds) / 100_000
        // The complexity starts from its stationary distribution, so even segment 0 is unbiased.
        #expect(abs(ratio - 1) < 0.05, "mean/nominal = \(ratio)")
    }

    @Test func sizesVaryFromSegmentToSegment() throws {
        let video = try Self.generator { $0.segmentCount = 100 }.generate(name: "v")
        let topLevel = (0..<video.segmentCount).map { video.sizeBytes(segment: $0, level: video.levelCount - 1) }
        #expect(Set(topLevel).count > 90)
    }

    @Test func defaultsAreValid() throws {
        try SyntheticVideoGenerator().validate()
    }

    static let invalid: [(option: String, edit: @Sendable (inout SyntheticVideoGenerator) -> Void)] = [
        ("ladder_kbps", { $0.ladderKbps = [] }),
        ("ladder_kbps", { $0.ladderKbps = [750, 300] }),
        ("ladder_kbps", { $0.ladderKbps = [300, 300, 750] }),
        ("ladder_kbps", { $0.ladderKbps = [0, 300] }),
        ("ladder_kbps", { $0.ladderKbps = [300, .infinity] }),
        ("ladder_kbps", { $0.ladderKbps = [300, .nan] }),
        ("segment_duration_s", { $0.segmentDurationSeconds = 0 }),
        ("segment_duration_s", { $0.segmentDurationSeconds = .infinity }),
        ("segment_duration_s", { $0.segmentDurationSeconds = 86_401 }),
        ("ladder_kbps", { $0.ladderKbps = [300, 2e9] }),
        ("segments", { $0.segmentCount = 0 }),
        // 10 million sizes over 6 levels: the sizes of a billion segments would fill gigabytes.
        ("segments", { $0.segmentCount = 1_666_667 }),
        ("complexity_spread", { $0.complexitySpread = -0.1 }),
        ("complexity_spread", { $0.complexitySpread = 2.1 }),
        ("level_noise", { $0.levelNoise = -0.1 }),
        ("level_noise", { $0.levelNoise = .nan }),
        ("complexity_correlation", { $0.complexityCorrelation = 1.1 }),
        ("complexity_correlation", { $0.complexityCorrelation = -0.1 }),
    ]

    /// Values in range whose sizes would pass 1 PB are refused before the conversion to Int,
    /// which trapped.
    @Test func sizesPastAPetabyteAreRefused() {
        let generator = Self.generator {
            $0.ladderKbps = [1e9]
            $0.segmentDurationSeconds = 86_400
        }
        #expect(throws: InputError.self) { try generator.generate(name: "v") }
    }

    @Test(arguments: invalid.indices)
    func validationNamesTheBadOption(index: Int) {
        let (option, edit) = Self.invalid[index]
        let generator = Self.generator(edit)
        let error = #expect(throws: InputError.self) { try generator.validate() }
        #expect(error?.file == option)
        #expect(throws: InputError.self) { try generator.generate(name: "v") }
    }
}
