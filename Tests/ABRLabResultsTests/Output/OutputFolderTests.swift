import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite(.tags(.core), .selectedByTags) struct OutputFolderTests {
    static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A finished run into `folder`, with or without `buffer_timeline.csv`.
    static func run(into folder: URL, timeline: Bool) throws {
        let writer = try ResultsWriter(directory: folder, writesTimeline: timeline)
        let manifest = try JSONSerialization.data(withJSONObject: [
            "version": "test", "command": ["abrlab", "compare"], "files": writer.fileNames,
        ])
        try writer.finish(ranking: ExperimentReport(strategyIDs: []).ranking(seed: 1), manifest: manifest)
    }

    @Test func aNewRunRemovesTheFilesOfThePreviousOneItDoesNotWriteAndLeavesOthersAlone() throws {
        let folder = try FixtureDirectory()
        try Self.run(into: folder.url, timeline: true)
        #expect(try Self.entries(folder.url).contains("buffer_timeline.csv"))
        try folder.write("notes.txt", "mine")
        try folder.write("figures/qoe_ci.png", "png")
        try Self.run(into: folder.url, timeline: false)
        #expect(try Self.entries(folder.url) == [
            "figures", "notes.txt", "ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv",
        ])
    }

    @Test func resultFilesWithoutAManifestMakeTheRunRefuse() throws {
        let folder = try FixtureDirectory()
        let stale = try folder.write("summary.csv", "strategy\n")
        #expect(throws: InputError(
            file: stale.path, mentioning: "not written by a run abrlab recorded (the folder has no run.json); remove it or choose another \(Setting.out)"
        )) { try ResultsWriter(directory: folder.url) }
        #expect(try Self.entries(folder.url) == ["summary.csv"])
    }

    @Test func aManifestThatIsNotAbrlabsMakesTheRunRefuse() throws {
        let folder = try FixtureDirectory()
        let manifest = try folder.write("run.json", "{\"name\": \"someone else's\"}")
        #expect(throws: InputError(file: manifest.path, mentioning: "is not the run.json of an abrlab run; choose another \(Setting.out)")) {
            try OutputFolder(folder.url)
        }
    }

    @Test func aManifestCannotPointOutsideItsFolder() throws {
        let folder = try FixtureDirectory()
        let outside = try folder.write("keep.csv", "precious")
        let results = try folder.folder("results")
        try Data(#"{"version": "x", "command": [], "files": ["../keep.csv", ".hidden.csv", "notes.txt", "sessions.csv"]}"#.utf8)
            .write(to: results.appendingPathComponent("run.json"))
        try Data("old".utf8).write(to: results.appendingPathComponent("sessions.csv"))
        try Data("mine".utf8).write(to: results.appendingPathComponent("notes.txt"))
        #expect(try OutputFolder(results).previousFiles == ["sessions.csv"])
        try Self.run(into: results, timeline: false)
        #expect(FileManager.default.fileExists(atPath: outside.path))
        #expect(FileManager.default.fileExists(atPath: results.appendingPathComponent("notes.txt").path))
    }

    @Test func temporaryFilesOfAKilledRunAreRemovedAndOldManifestsOwnTheStandardNames() throws {
        let folder = try FixtureDirectory()
        // An older manifest without a files list, and a temporary file named for a live process:
        // the folder's owner knows no run of it is live.
        try folder.write("run.json", #"{"version": "0.1.0", "command": ["abrlab"]}"#)
        try folder.write("buffer_timeline.csv", "old")
        try folder.write(".segments.csv.tmp-\(getpid())-0000", "partial")
        try Self.run(into: folder.url, timeline: false)
        #expect(try Self.entries(folder.url) == ["ranked.json", "run.json", "segments.csv", "sessions.csv", "summary.csv", "transitions.csv"])
    }

    /// A partial folder without a recorded plan (a killed merge's, or a compare killed before its
    /// first record) goes whole; a compare's checkpoints stay for --resume, less temporary files.
    @Test(arguments: [false, true])
    func leftoversOfKilledRunsGoAndCheckpointsStay(recordedPlan: Bool) throws {
        let folder = try FixtureDirectory()
        let partial = ResumableResults.partialFolderName
        try folder.write("\(partial)/.segments.csv.tmp-\(getpid())-0000", "half a merge")
        try folder.write("\(partial)/.summary.csv.tmp-1-0000", "half a summary")
        try folder.write("\(partial)/journal", "")
        try folder.write("\(partial)/plan", recordedPlan ? "fingerprint x\nshard -\n" : "")
        try folder.write(".run.json.tmp-1-0000", "old")
        try folder.write(".notes.txt.tmp-1-0000", "not a result file: not ours")
        OutputFolder.removeLeftovers(in: folder.url)
        #expect(try Self.entries(folder.url) == ([".notes.txt.tmp-1-0000"] + (recordedPlan ? [partial] : [])).sorted())
        if recordedPlan { #expect(try Self.entries(folder.url.appendingPathComponent(partial)) == ["journal", "plan"]) }
    }

    @Test func aFileSystemRootIsRefusedUnlessEmptyAndOtherFoldersAreNot() throws {
        #expect(throws: InputError(file: "/", "is the root of a file system and not empty; give the results a folder of their own (such as /results)")) {
            try OutputFolder.refuseUnsafeLocation(URL(fileURLWithPath: "/"))
        }
        let folder = try FixtureDirectory()
        try folder.write("notes.txt", "mine")
        try OutputFolder.refuseUnsafeLocation(folder.url)
        try OutputFolder.refuseUnsafeLocation(folder.url.appendingPathComponent("missing"))
    }
}
