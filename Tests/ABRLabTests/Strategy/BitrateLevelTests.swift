import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BitrateLevelTests {
    @Test(arguments: [
        (0, 500_000, "360p"), (1, 1_000_000, "480p"), (2, 2_500_000, "720p"),
        (3, 5_000_000, "1080p"), (4, 15_000_000, "4K"),
    ])
    func standardLevelsMatchTheSeedTable(index: Int, bitrate: Int, label: String) {
        #expect(BitrateLevel.standardLevels.count == 5)
        #expect(BitrateLevel.standardLevels[index] == BitrateLevel(bitrate: bitrate, label: label))
    }

    @Test func ordersByBitrateOnly() {
        let low = BitrateLevel(bitrate: 100, label: "z")
        let high = BitrateLevel(bitrate: 200, label: "a")
        #expect(low < high)
        #expect([high, low].sorted() == [low, high])
        #expect(high.bitrateKbps == 0.2)
    }
}
