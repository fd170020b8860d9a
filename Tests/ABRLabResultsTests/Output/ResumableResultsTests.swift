import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ResumableResultsTests {
    static let layout = ResumableResults.Layout(segments: .csvGzip, formats: false, timeline: false)

    static func layout(_ segments: SegmentsFormat) -> ResumableResults.Layout {
        ResumableResults.Layout(segments: segments, formats: false, timeline: false)
    }

    static let ranking = ExperimentReport(strategyIDs: ["low", "high"]).ranking(seed: 1)

    static func chunk() throws -> [SessionCSV] {
        try ResultsWriterTests.outcomes().map { SessionCSV(outcome: $0, profile: "ideal", qoeModel: "linear") }
    }

    static func contents(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    /// Three chunks written in one go.
    static func uninterrupted(_ directory: URL, segments: SegmentsFormat = .csvGzip) throws -> [String: Data] {
        let results = try ResumableResults(directory: directory, layout: layout(segments), identity: "plan A", resume: false)
        for _ in 0..<3 { try results.append(trace: try chunk()) }
        try results.finish(ranking: Self.ranking, manifest: Data("{}".utf8))
        return try contents(directory)
    }

    /// Compressed segments hold the plain file's bytes.
    @Test(arguments: [SegmentsFormat.csvGzip, .csvZstd])
    func finishingMovesEveryFileIntoPlaceAndRemovesThePartialFolder(segments: SegmentsFormat) throws {
        let folder = try FixtureDirectory()
        let files = try Self.uninterrupted(folder.url, segments: segments)
        let name = try #require(segments.fileName)
        #expect(files.keys.sorted() == ["ranked.json", "run.json", name, "sessions.csv", "summary.csv", "transitions.csv"])
        let sessions = String(decoding: files["sessions.csv"] ?? Data(), as: UTF8.self)
        #expect(sessions.split(separator: "\n").count == 1 + 3 * 2)
        let compression = try #require(FileCompression(fileName: name))
        let plainFolder = try FixtureDirectory()
        let plain = try Self.uninterrupted(plainFolder.url, segments: .csv)
        #expect(compression.decompress([UInt8](files[name] ?? Data())) == [UInt8](plain["segments.csv"] ?? Data()))
        #expect(String(decoding: plain["segments.csv"] ?? Data(), as: UTF8.self).hasPrefix("strategy,trace,segment,"))
    }

    @Test(arguments: SegmentsFormat.allCases)
    func aResumedRunEndsWithTheSameBytesAndRedoesOnlyUncheckpointedChunks(segments: SegmentsFormat) throws {
        let reference = try FixtureDirectory()
        let expected = try Self.uninterrupted(reference.url, segments: segments)
        let folder = try FixtureDirectory()
        do {
            let results = try ResumableResults(directory: folder.url, layout: Self.layout(segments), identity: "plan A", resume: false)
            results.checkpointInterval = .zero
            try results.append(trace: try Self.chunk())
            results.checkpointInterval = .seconds(3600)
            try results.append(trace: try Self.chunk())
        }
        // A crash while writing the journal leaves a torn line, which is ignored.
        let journal = folder.url.appendingPathComponent(ResumableResults.partialFolderName + "/journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("traces=2 finished=0 sessions.c".utf8))
        try handle.close()

        let resumed = try ResumableResults(directory: folder.url, layout: Self.layout(segments), identity: "plan A", resume: true)
        #expect(resumed.tracesDone == 1)
        var report = ExperimentReport(strategyIDs: ["low", "high"])
        let completed = resumed.completedSessions
        #expect(try SessionsCSVReader.read(completed.url, length: completed.length, into: &report) == 2)
        for _ in 0..<2 { try resumed.append(trace: try Self.chunk()) }
        try resumed.finish(ranking: Self.ranking, manifest: Data("{}".utf8))
        #expect(try Self.contents(folder.url) == expected)
    }

    @Test func damagedPartialDataIsAnErrorNotAResult() throws {
        let folder = try FixtureDirectory()
        do {
            let results = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan A", resume: false)
            results.checkpointInterval = .zero
            try results.append(trace: try Self.chunk())
        }
        let sessions = folder.url.appendingPathComponent(ResumableResults.partialFolderName + "/sessions.csv")
        var bytes = try Data(contentsOf: sessions)
        bytes[bytes.count - 3] ^= 0x01
        try bytes.write(to: sessions)
        #expect(throws: InputError.self) {
            _ = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan A", resume: true)
        }
    }

    @Test func anotherPlansPartialRunIsRefusedOnResumeAndReplacedOtherwise() throws {
        let folder = try FixtureDirectory()
        do {
            let results = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan A", resume: false)
            try results.append(trace: try Self.chunk())
        }
        #expect(throws: InputError.self) {
            _ = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan B", resume: true)
        }
        let fresh = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan B", resume: false)
        #expect(fresh.tracesDone == 0)
    }

    /// A run that stopped before recording its plan (an older abrlab on a full disk left it
    /// empty) has nothing to continue: --resume starts over instead of refusing the folder.
    @Test(arguments: [false, true])
    func aPartialRunWithoutARecordedPlanIsStartedOver(emptyPlan: Bool) throws {
        let folder = try FixtureDirectory()
        if emptyPlan {
            try folder.write(ResumableResults.partialFolderName + "/plan", "")
        } else {
            _ = try folder.folder(ResumableResults.partialFolderName)
        }
        let resumed = try ResumableResults(directory: folder.url, layout: Self.layout, identity: "plan A", resume: true)
        #expect(resumed.tracesDone == 0)
        #expect(ResumableResults.recordedPlan(in: folder.url.appendingPathComponent(ResumableResults.partialFolderName)) == "plan A")
    }

    @Test func readingSessionsBackGivesTheSameSummaries() throws {
        let folder = try FixtureDirectory()
        _ = try Self.uninterrupted(folder.url)
        var direct = ExperimentReport(strategyIDs: ["low", "high"])
        for _ in 0..<3 {
            for session in try Self.chunk() {
                direct.add(strategyID: session.strategyID, traceName: session.traceName, metrics: session.metrics, error: session.error)
            }
        }
        var read = ExperimentReport(strategyIDs: ["low", "high"])
        try SessionsCSVReader.read(folder.url.appendingPathComponent("sessions.csv"), into: &read)
        #expect(read.summaries(seed: 7) == direct.summaries(seed: 7))
    }
}
