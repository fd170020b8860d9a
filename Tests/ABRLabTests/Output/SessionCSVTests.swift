import ABRLab
import Testing

@Suite struct SessionCSVTests {
    static func outcome(_ strategy: StrategyDescriptor) throws -> SessionOutcome {
        var plan = try RunnerFixtures.plan(strategies: [strategy])
        plan.traces = [try EmulatorFixtures.constantTrace(mbps: 2)]
        return plan.runSession(index: 0)
    }

    @Test func aFinishedSessionHasOneLinePerSegmentAndTransition() throws {
        let outcome = try Self.outcome(RunnerFixtures.descriptor("low", levels: [0]))
        let csv = SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "linear")
        let seed = SessionSeed.derive(seed: 7, strategyID: "low", traceName: "flat")
        #expect(csv.sessionLine == "low,flat,ideal,linear,4,4.0,1.0,1000.0,0.0,0.0,0,0,0.5,\(seed),\n")
        #expect(csv.metrics == outcome.metrics)
        #expect(csv.error == nil)

        let segments = csv.segmentLines.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(segments.count == 4)
        #expect(segments.allSatisfy { $0.count == SessionCSV.segmentsHeader.count })
        // Segments and levels 1-based, as in the Lua API.
        #expect(segments.map { $0[2] } == ["1", "2", "3", "4"])
        #expect(segments.map { $0[3] } == ["1", "1", "1", "1"])
        #expect(segments.map { $0[6] } == ["0.0", "0.5", "1.0", "1.5"])
        // Per-segment QoE is the last column: utility 1, no switches, no stalls.
        #expect(segments.map { $0.last } == ["1.0", "1.0", "1.0", "1.0"])

        let transitions = csv.transitionLines.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(transitions.count == outcome.result?.transitions.count)
        #expect(transitions.allSatisfy { $0.count == SessionCSV.transitionsHeader.count })
        // Load, ready and play at 0.5 s, then the end after 4 s of content.
        #expect(transitions.map { $0[2] } == ["0.0", "0.5", "0.5", "4.5"])
    }

    @Test func aFailedSessionHasEmptyMetricsAndItsMessage() throws {
        let outcome = try Self.outcome(StrategyDescriptor(id: "thrower", name: "T", description: "fails") { ThrowingStrategy() })
        let csv = SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "hd")
        let seed = SessionSeed.derive(seed: 7, strategyID: "thrower", traceName: "flat")
        #expect(csv.sessionLine == "thrower,flat,ideal,hd,,,,,,,,,,\(seed),strategy gave up (segment 1 of flat)\n")
        #expect(csv.sessionLine.split(separator: ",", omittingEmptySubsequences: false).count == SessionCSV.sessionsHeader.count)
        #expect(csv.segmentLines == "")
        #expect(csv.transitionLines == "")
    }
}
