import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ConservativeBitrateStrategyTests {
    let sut = ConservativeBitrateStrategy()
    let levels = BitrateLevel.standardLevels

    // Follows the seed's code, not its prose: `.good` picks index 5 * 2 / 3 = 3 (1080p).
    @Test(arguments: [
        (NetworkQuality.offline, 500_000), (.poor, 500_000), (.fair, 1_000_000),
        (.good, 5_000_000), (.excellent, 15_000_000),
    ])
    func initialBitrateByQuality(quality: NetworkQuality, expected: Int) {
        #expect(sut.initialBitrate(for: quality, availableLevels: levels) == expected)
        #expect(sut.initialBitrate(for: quality, availableLevels: levels.reversed()) == expected)
    }

    @Test func initialBitrateOnAnEmptyLadderIsZero() {
        #expect(sut.initialBitrate(for: .excellent, availableLevels: []) == 0)
    }

    @Test(arguments: [
        // (quality, buffer health, expected)
        (NetworkQuality.offline, 1.0, nil), (.poor, 1.0, nil), (.fair, 1.0, nil),
        (.good, 0.7, Int?(5_000_000)), (.good, 0.69, nil), (.excellent, 0.85, 5_000_000),
        (.excellent, 0.4, nil),
    ] as [(NetworkQuality, Double, Int?)])
    func upgradeConditions(quality: NetworkQuality, health: Double, expected: Int?) {
        let result = sut.shouldUpgrade(
            currentBitrate: 2_500_000, bufferHealth: health, networkQuality: quality, availableLevels: levels
        )
        #expect(result == expected)
    }

    @Test(arguments: [
        // (current bitrate, expected upgrade): between levels counts as the upper one; top and above stay.
        (2_500_000, Int?(5_000_000)), (2_000_000, 5_000_000), (100, 1_000_000),
        (15_000_000, nil), (20_000_000, nil),
    ] as [(Int, Int?)])
    func upgradeEdges(current: Int, expected: Int?) {
        let unsorted = [levels[3], levels[0], levels[4], levels[2], levels[1]]
        let result = sut.shouldUpgrade(
            currentBitrate: current, bufferHealth: 1, networkQuality: .excellent, availableLevels: unsorted
        )
        #expect(result == expected)
    }

    @Test(arguments: [
        // (rebuffering ratio, quality, expected)
        (0.05, NetworkQuality.excellent, Int?(1_000_000)), (0.049, .excellent, nil), (0.10, .fair, 1_000_000),
        (0.0, .poor, 1_000_000), (0.0, .offline, 1_000_000), (0.0, .fair, nil), (0.0, .good, nil),
    ] as [(Double, NetworkQuality, Int?)])
    func downgradeTriggers(ratio: Double, quality: NetworkQuality, expected: Int?) {
        let result = sut.shouldDowngrade(
            currentBitrate: 2_500_000, rebufferingRatio: ratio, networkQuality: quality, availableLevels: levels
        )
        #expect(result == expected)
    }

    @Test(arguments: [
        (500_000, Int?.none), (100, nil), (2_000_000, Int?(1_000_000)), (20_000_000, nil), (15_000_000, 5_000_000),
    ] as [(Int, Int?)])
    func downgradeEdges(current: Int, expected: Int?) {
        let result = sut.shouldDowngrade(
            currentBitrate: current, rebufferingRatio: 1, networkQuality: .poor, availableLevels: levels.reversed()
        )
        #expect(result == expected)
    }

    @Test func customThresholds() {
        let strict = ConservativeBitrateStrategy(bufferHealthThreshold: 0.9, rebufferingThreshold: 0.2)
        #expect(strict.shouldUpgrade(currentBitrate: 500_000, bufferHealth: 0.85, networkQuality: .excellent, availableLevels: levels) == nil)
        #expect(strict.shouldDowngrade(currentBitrate: 5_000_000, rebufferingRatio: 0.1, networkQuality: .good, availableLevels: levels) == nil)
    }

    // The seed's own examples.
    @Test func seedExamples() {
        #expect(sut.initialBitrate(for: .excellent, availableLevels: levels) == 15_000_000)
        #expect(sut.shouldUpgrade(currentBitrate: 2_500_000, bufferHealth: 0.85, networkQuality: .excellent, availableLevels: levels) == 5_000_000)
        #expect(sut.shouldDowngrade(currentBitrate: 2_500_000, rebufferingRatio: 0.10, networkQuality: .fair, availableLevels: levels) == 1_000_000)
        #expect(sut.shouldUpgrade(currentBitrate: 2_500_000, bufferHealth: 0.4, networkQuality: .excellent, availableLevels: levels) == nil)
        #expect(sut.shouldDowngrade(currentBitrate: 2_500_000, rebufferingRatio: 0.08, networkQuality: .fair, availableLevels: levels) == 1_000_000)
    }
}
