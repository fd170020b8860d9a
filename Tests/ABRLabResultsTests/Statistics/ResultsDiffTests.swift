import ABRLab
import ABRLabResults
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ResultsDiffTests {
    static let header = "strategy,trace,qoe_total,error\n"

    @Test func pairsSessionsAndSummarisesTheDeltasPerStrategy() throws {
        let a = try CSVTable(Self.header + "s,t1,10.0,\ns,t2,5.0,\nr,t1,1.0,\nr,t2,,boom\n", file: "a")
        let b = try CSVTable(Self.header + "s,t1,12.0,\ns,t2,4.0,\nr,t1,1.0,\nr,t3,2.0,\n", file: "b")
        let diff = try ResultsDiff(a: a, b: b, fileA: "a", fileB: "b")
        #expect(diff.strategies.map(\.strategyID) == ["s", "r"])
        let s = diff.strategies[0]
        #expect([s.sessionsA, s.sessionsB, s.paired, s.changed] == [2, 2, 2, 2])
        #expect([s.meanDelta, s.minDelta, s.maxDelta] == [0.5, -1, 2])
        let r = diff.strategies[1]
        // t1 equal; t2 failed in A and is absent in B; t3 only in B.
        #expect([r.sessionsA, r.sessionsB, r.failedA, r.failedB, r.paired, r.changed] == [2, 2, 1, 0, 1, 2])
        #expect(diff.changedSessions.map(\.traceName) == ["t1", "t2", "t2", "t3"])
        #expect(diff.hasDifferences)
    }

    @Test func theToleranceDecidesWhatChanged() throws {
        let a = try CSVTable(Self.header + "s,t1,10.0,\n", file: "a")
        let b = try CSVTable(Self.header + "s,t1,10.25,\n", file: "b")
        #expect(try ResultsDiff(a: a, b: b, fileA: "a", fileB: "b").hasDifferences)
        #expect(try !ResultsDiff(a: a, b: b, fileA: "a", fileB: "b", tolerance: 0.25).hasDifferences)
    }

    @Test func foldersWrittenBeforeTheRenameUseQoE() throws {
        let old = try CSVTable("strategy,trace,qoe,qoe_mean,error\ns,t1,10.0,0.2,\n", file: "old")
        let new = try CSVTable(Self.header + "s,t1,10.0,\n", file: "new")
        #expect(try !ResultsDiff(a: old, b: new, fileA: "old", fileB: "new").hasDifferences)
    }

    @Test func aSessionQoEThatIsNotANumberIsAnError() throws {
        let bad = try CSVTable(Self.header + "s,t1,lots,\n", file: "bad")
        #expect(throws: InputError(file: "bad", line: 2, "'lots' is not a session QoE")) {
            try ResultsDiff(a: bad, b: bad, fileA: "bad", fileB: "bad")
        }
    }
}
