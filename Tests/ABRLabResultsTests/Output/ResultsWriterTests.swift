import ABRLab
import ABRLabResults
import EngineFixtures
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ResultsWriterTests {
    static let fileNames = ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"]
    static let emptyRanking = ExperimentReport(strategyIDs: []).ranking(seed: 1)

    static func lines(_ url: URL) throws -> [String] {
        String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// "low" and "high" over one 2 Mbps trace: QoE 4 and 8, no stalls.
    static func outcomes() throws -> [SessionOutcome] {
        var plan = try RunnerFixtures.plan(
            strategies: [RunnerFixtures.descriptor("low", levels: [0]), RunnerFixtures.descriptor("high", levels: [1])]
        )
        plan.traces = [try EmulatorFixtures.constantTrace(mbps: 2)]
        return (0..<plan.sessionCount).map { plan.runSession(index: $0) }
    }

    @Test func nothingAppearsUntilFinish() throws {
        let folder = try FixtureDirectory()
        let writer = try ResultsWriter(directory: folder.url.appendingPathComponent("out/run-1"))
        for outcome in try Self.outcomes() { try writer.append(SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "linear")) }
        let entries = try FileManager.default.contentsOfDirectory(atPath: writer.directory.path)
        #expect(entries.count == 3)
        #expect(Set(entries).isDisjoint(with: Self.fileNames))
    }

    @Test func anAbandonedWriterLeavesAnEmptyFolder() throws {
        let folder = try FixtureDirectory()
        let directory = folder.url.appendingPathComponent("out")
        func abandon() throws {
            let writer = try ResultsWriter(directory: directory)
            for outcome in try Self.outcomes() { try writer.append(SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "linear")) }
        }
        try abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }

    @Test func finishWritesTheSixFilesWithTheirHeaders() throws {
        let folder = try FixtureDirectory()
        let writer = try ResultsWriter(directory: folder.url)
        let outcomes = try Self.outcomes()
        for outcome in outcomes { try writer.append(SessionCSV(outcome: outcome, profile: "ideal", qoeModel: "linear")) }
        try writer.finish(ranking: Self.emptyRanking, manifest: Data("{\"seed\": 7}".utf8))

        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == Self.fileNames)
        #expect(writer.fileNames == Self.fileNames)
        let sessions = try Self.lines(folder.url.appendingPathComponent("sessions.csv"))
        #expect(sessions.first == SessionCSV.sessionsHeader.joined(separator: ","))
        #expect(sessions.count == 1 + 2 + 1)
        #expect(sessions[1].hasPrefix("low,flat,ideal,linear,4,4,1,1000,0,0,0,0,0.5,"))
        #expect(sessions[2].hasPrefix("high,flat,ideal,linear,4,8,2,2000,0,0,0,0,1,"))
        #expect(sessions.last == "")

        let segments = try Self.lines(folder.url.appendingPathComponent("segments.csv"))
        #expect(segments.first == SessionCSV.segmentsHeader.joined(separator: ","))
        #expect(segments.count == 1 + 8 + 1)
        // Segments and levels are 1-based.
        #expect(segments[1].hasPrefix("low,flat,1,1,1000,125000,0,0.5,0.5,"))
        #expect(segments[8].hasPrefix("high,flat,4,2,2000,250000,3,4,1,"))

        let transitions = try Self.lines(folder.url.appendingPathComponent("transitions.csv"))
        #expect(transitions.first == SessionCSV.transitionsHeader.joined(separator: ","))
        let perSession = outcomes.map { $0.result?.transitions.count ?? 0 }
        #expect(transitions.count == 1 + perSession.reduce(0, +) + 1)
        #expect(transitions[1].hasPrefix("low,flat,0,"))

        #expect(try Self.lines(folder.url.appendingPathComponent("summary.csv")) == [Ranking.summaryHeader.joined(separator: ","), ""])
        #expect(try String(decoding: Data(contentsOf: folder.url.appendingPathComponent("run.json")), as: UTF8.self) == "{\"seed\": 7}\n")
    }

    @Test func summaryRowsWithAndWithoutABaseline() throws {
        let folder = try FixtureDirectory()
        let writer = try ResultsWriter(directory: folder.url)
        var report = ExperimentReport(strategyIDs: ["low", "high", "broken"])
        report.add(strategyID: "low", traceName: "flat", metrics: try MetricsFixtures.low(), error: nil)
        report.add(strategyID: "high", traceName: "flat", metrics: try MetricsFixtures.high(), error: nil)
        report.add(strategyID: "broken", traceName: "flat", metrics: nil, error: "x: bad, really")
        try writer.finish(ranking: report.ranking(seed: 1, baselineID: "low"), manifest: Data("{}".utf8))

        let rows = try Self.lines(folder.url.appendingPathComponent("summary.csv")).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // The broken strategy shrinks nothing: high and low are ranked on the one trace, with statistics.
        #expect(rows[0] == Ranking.summaryHeader)
        #expect(rows[1].prefix(10) == ["high", "1", "true", "1", "0", "1", "8", "8", "8", "8"])
        #expect(rows[1].suffix(9) == ["low", "1", "1", "0", "0", "4", "4", "4", ""])
        #expect(rows[2].prefix(10) == ["low", "2", "true", "1", "0", "1", "4", "4", "4", "4"])
        #expect(rows[2].suffix(9) == Array(repeating: "", count: 9))
        // The incomplete strategy: no rank, its failures, no statistics, and the quoted message.
        let none = Array(repeating: "", count: 8)
        #expect(rows[3] == ["broken", "", "false", "0", "1", "0"] + none + ["low", "0", "0", "0", "0", "", "", "", "\"x: bad", " really\""])
        #expect(rows.count == 5 && rows[4] == [""])
        #expect(Ranking.summaryHeader.count == 23)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("ranked.json"))) as? [String: Any]
        #expect((json?["ranked"] as? [[String: Any]])?.map { $0["strategy"] as? String } == ["high", "low"])
        #expect((json?["incomplete"] as? [[String: Any]])?.first?["failures"] as? Int == 1)
        #expect((json?["incomplete"] as? [[String: Any]])?.first?["rank"] is NSNull)
    }

    @Test func aFileInTheWayOfTheFolderIsAnInputError() throws {
        let folder = try FixtureDirectory()
        let blocker = try folder.write("taken", "a file, not a folder")
        #expect(throws: InputError(file: blocker.path, "cannot create the output folder")) { try ResultsWriter(directory: blocker) }
    }
}
