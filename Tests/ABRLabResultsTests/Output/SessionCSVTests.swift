import ABRLab
import ABRLabResults
import EngineFixtures
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct SessionCSVTests {
    static func outcome(_ strategy: StrategyDescriptor) throws -> SessionOutcome {
        var plan = try RunnerFixtures.plan(strategies: [strategy])
        plan.traces = [try EmulatorFixtures.constantTrace(mbps: 2)]
        return plan.runSession(index: 0)
    }

    @Test func aFinishedSessionHasOneLinePerSegmentAndTransition() throws {
        let outcome = try Self.outcome(RunnerFixtures.descriptor("low", levels: [0]))
        let csv = SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "linear")
        let seed = SessionSeed.derive(seed: 7, strategyID: "low", traceName: "flat")
        #expect(csv.sessionLine.hasPrefix("low,flat,ideal,linear,4,4,1,1000,0,0,0,0,0.5,\(seed),,"))
        let fields = csv.sessionLine.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == SessionCSV.sessionsHeader.count)
        let column = { (name: String) in fields[SessionCSV.sessionsHeader.firstIndex(of: name)!] }
        // Session time is start-up (0.5 s) plus 4 s of content; four segments of 1000 kbps.
        #expect(column("session_s") == "4.5")
        #expect(column("played_bitrate_kbps") == "4000")
        #expect(column("rebuffer_events") == "0")
        #expect(csv.metrics == outcome.metrics)
        #expect(csv.error == nil)

        let segments = csv.segmentLines.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(segments.count == 4)
        #expect(segments.allSatisfy { $0.count == SessionCSV.segmentsHeader.count })
        // Segments and levels 1-based, as in the Lua API.
        #expect(segments.map { $0[2] } == ["1", "2", "3", "4"])
        #expect(segments.map { $0[3] } == ["1", "1", "1", "1"])
        #expect(segments.map { $0[6] } == ["0", "0.5", "1", "1.5"])
        // Per-segment QoE: utility 1, no switches, no stalls; each segment took one request.
        let qoe = SessionCSV.segmentsHeader.firstIndex(of: "qoe")!
        #expect(segments.map { $0[qoe] } == ["1", "1", "1", "1"])
        #expect(segments.map { $0[qoe + 1] } == ["1", "1", "1", "1"])

        let transitions = csv.transitionLines.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(transitions.count == outcome.result?.transitions.count)
        #expect(transitions.allSatisfy { $0.count == SessionCSV.transitionsHeader.count })
        // Load, ready and play at 0.5 s, then the end after 4 s of content.
        #expect(transitions.map { $0[2] } == ["0", "0.5", "0.5", "4.5"])
    }

    @Test func aFailedSessionHasEmptyMetricsAndItsMessage() throws {
        let outcome = try Self.outcome(StrategyDescriptor(id: "thrower", name: "T", description: "fails") { ThrowingStrategy() })
        let csv = SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "hd")
        let seed = SessionSeed.derive(seed: 7, strategyID: "thrower", traceName: "flat")
        let empty = String(repeating: ",", count: SessionCSV.playbackHeader.count)
        #expect(csv.sessionLine == "thrower,flat,ideal,hd,,,,,,,,,,\(seed),strategy gave up (segment 1 of flat)\(empty)\n")
        #expect(csv.sessionLine.split(separator: ",", omittingEmptySubsequences: false).count == SessionCSV.sessionsHeader.count)
        #expect(csv.segmentLines == "")
        #expect(csv.transitionLines == "")
    }
}
