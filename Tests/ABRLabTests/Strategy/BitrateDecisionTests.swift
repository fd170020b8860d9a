import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BitrateDecisionTests {
    let sut = ConservativeBitrateStrategy()
    let levels = BitrateLevel.standardLevels

    @Test(arguments: [
        // (health, ratio, quality, expected): upgrade wins over downgrade when both are offered.
        (0.9, 0.5, NetworkQuality.excellent, BitrateDecision.upgrade(to: 5_000_000)),
        (0.1, 0.5, .excellent, .downgrade(to: 1_000_000)),
        (0.9, 0.0, .poor, .downgrade(to: 1_000_000)),
        (0.5, 0.0, .good, .maintain),
        (0.9, 0.0, .fair, .maintain),
    ])
    func upgradeIsCheckedFirstThenDowngrade(
        health: Double, ratio: Double, quality: NetworkQuality, expected: BitrateDecision
    ) {
        let decision = sut.decision(
            currentBitrate: 2_500_000, bufferHealth: health, rebufferingRatio: ratio,
            networkQuality: quality, availableLevels: levels
        )
        #expect(decision == expected)
    }

    @Test func bitrateAfterDecision() {
        #expect(BitrateDecision.maintain.bitrate(from: 7) == 7)
        #expect(BitrateDecision.upgrade(to: 9).bitrate(from: 7) == 9)
        #expect(BitrateDecision.downgrade(to: 3).bitrate(from: 7) == 3)
    }
}
