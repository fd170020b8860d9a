import ABRLab
import EngineFixtures
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct StrategyConformanceTests {
    static let natives: [StrategyDescriptor] = [.conservative, .bufferBased, .robustMPC]

    @Test(arguments: natives.map(\.id))
    func nativeStrategiesConform(id: String) throws {
        let descriptor = try #require(Self.natives.first { $0.id == id })
        let report = try StrategyConformance().check(descriptor)
        #expect(report.passed, "\(report.findings)")
        let names = ["steady", "variable", "slow"]
        #expect(report.levelsByTrace.map(\.trace) == names + names.map { "\($0) (sabre)" } + names.map { "\($0) (live)" })
        #expect(report.levelsByTrace.prefix(6).allSatisfy { $0.levels.count == 20 })
    }

    /// Goes for the top level and abandons every download above the lowest.
    struct Relentless: SessionStrategy {
        func chooseLevel(_ context: DecisionContext) -> Int { context.levelCount - 1 }
        func checkAbandonment(_ progress: DownloadProgress) -> Int? { progress.level > 0 ? 0 : nil }
    }

    /// The abandonment check runs under `sabre`, where one that never lets a segment finish fails.
    @Test func findsAnAbandonmentCheckThatNeverLetsGo() throws {
        let descriptor = StrategyDescriptor(id: "relentless", name: "relentless", description: "") { Relentless() }
        let report = try StrategyConformance().check(descriptor)
        #expect(report.findings.map(\.trace) == ["steady (sabre)", "variable (sabre)", "slow (sabre)"])
        #expect(report.findings.allSatisfy { $0.message.hasPrefix("relentless: abandoned segment 2 1000 times (the limit per segment) on ") })
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
