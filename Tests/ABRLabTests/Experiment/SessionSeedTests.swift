import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SessionSeedTests {
    @Test func derivesTheSeedsPublishedInResults() {
        // Seeds written by `abrlab compare --seed 1` (Tests/abrlabTests/Golden/compare-native-sessions.csv);
        // changing the derivation would change every published result.
        #expect(SessionSeed.derive(seed: 1, strategyID: "conservative", traceName: "3g_1") == 14_622_297_938_928_248_260)
        #expect(SessionSeed.derive(seed: 1, strategyID: "bba-native", traceName: "3g_1") == 5_277_651_446_317_245_148)
    }

    @Test func dependsOnlyOnItsInputs() {
        let first = SessionSeed.derive(seed: 42, strategyID: "bba", traceName: "norway_bus_1")
        let again = SessionSeed.derive(seed: 42, strategyID: String("bba"), traceName: ["norway", "bus", "1"].joined(separator: "_"))
        #expect(first == again)
    }

    @Test func changesWhenAnyInputChanges() {
        let variants: [(UInt64, String, String)] = [
            (42, "bba", "trace"), (43, "bba", "trace"), (0, "bba", "trace"), (42, "bbb", "trace"),
            (42, "bba", "trace2"), (42, "", "trace"), (42, "bba", ""), (42, "", ""),
            // The separator keeps the boundary between the two names.
            (42, "bbat", "race"), (42, "bb", "atrace"),
            (42, "trace", "bba"),
        ]
        let seeds = variants.map { SessionSeed.derive(seed: $0.0, strategyID: $0.1, traceName: $0.2) }
        #expect(Set(seeds).count == variants.count)
    }

    @Test func theMixIsSplitMix64sFirstOutput() {
        #expect(SessionSeed.mix(0) == 0xE220_A839_7B1D_CDAF)
        for value: UInt64 in [1, 12345, .max] {
            var generator = SeededGenerator(seed: value)
            #expect(SessionSeed.mix(value) == generator.next())
        }
    }

    @Test func seedsSpreadOverTheWholeRange() {
        // Consecutive trace names should not give neighbouring seeds (FNV alone would share high bits).
        let seeds = (0..<64).map { SessionSeed.derive(seed: 1, strategyID: "s", traceName: "trace-\($0)") }
        #expect(seeds.contains { $0 >> 63 == 1 })
        #expect(seeds.contains { $0 >> 63 == 0 })
        #expect(Set(seeds.map { $0 >> 58 }).count > 20)
    }
}
