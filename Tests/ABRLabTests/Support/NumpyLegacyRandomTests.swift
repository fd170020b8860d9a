import ABRLab
import Testing
import TestSupport

/// NumpyLegacyRandom against numpy's own draws (NumpyLegacyRandomFixture, made by
/// scripts/numpy-random-fixture).
@Suite(.tags(.core, .reference), .selectedByTags) struct NumpyLegacyRandomTests {
    @Test(arguments: NumpyLegacyRandomFixture.draws.map(\.seed))
    func matchesNumpysDraws(seed: UInt32) throws {
        let expected = try #require(NumpyLegacyRandomFixture.draws.first { $0.seed == seed })
        var raw = NumpyLegacyRandom(seed: seed)
        #expect((0..<expected.raw.count).map { _ in raw.nextUInt32() } == expected.raw)

        var bounded = NumpyLegacyRandom(seed: seed)
        let draws = (0..<1250).map { _ in bounded.randomInteger(low: 1, high: 1000) }
        #expect(Array(draws[0..<20]) == expected.randint)
        #expect(Array(draws[1240..<1250]) == expected.randintLate)

        var doubles = NumpyLegacyRandom(seed: seed)
        #expect((0..<expected.doubles.count).map { _ in doubles.nextDouble() } == expected.doubles)

        var wide = NumpyLegacyRandom(seed: seed)
        var values = (0..<4).map { _ in wide.randomInteger(low: 0, high: 1 << 40) }
        values.append(wide.randomInteger(low: 7, high: 8))
        values.append(wide.randomInteger(low: 0, high: 10))
        #expect(values == expected.wide)
    }

    @Test func pensievesFirstDrawsAfterSeed42() {
        var random = NumpyLegacyRandom(seed: 42)
        #expect((0..<5).map { _ in random.randomInteger(low: 1, high: 1000) } == [103, 436, 861, 271, 107])
    }
}
