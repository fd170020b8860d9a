import ABRLab
import Testing

@Suite struct StrategyConformanceTests {
    static let natives: [StrategyDescriptor] = [.conservative, .bufferBased, .robustMPC]

    @Test(arguments: natives.map(\.id))
    func nativeStrategiesConform(id: String) throws {
        let descriptor = try #require(Self.natives.first { $0.id == id })
        let report = try StrategyConformance().check(descriptor)
        #expect(report.passed, "\(report.findings)")
        #expect(report.levelsByTrace.count == 3)
        #expect(report.levelsByTrace.allSatisfy { $0.levels.count == 20 })
    }

    /// A strategy whose choices depend on hidden shared state breaks "same seed, same session".
    final class Counter: @unchecked Sendable { var calls = 0 }

    struct Drifting: SessionStrategy {
        let counter: Counter
        func chooseLevel(_ context: DecisionContext) -> Int {
            counter.calls += 1
            return counter.calls % context.levelCount
        }
    }

    @Test func findsNondeterminism() throws {
        let counter = Counter()
        let descriptor = StrategyDescriptor(id: "drift", name: "drift", description: "") { Drifting(counter: counter) }
        let report = try StrategyConformance().check(descriptor)
        #expect(!report.passed)
        #expect(report.findings.contains { $0.check == "same seed, same session" })
    }

    @Test func findsOutOfRangeLevels() throws {
        let descriptor = StrategyDescriptor(id: "wild", name: "wild", description: "") { ScriptedStrategy(levels: [0, 9]) }
        let report = try StrategyConformance().check(descriptor)
        #expect(report.findings.contains { $0.message.contains("chose level 9") })
    }
}
