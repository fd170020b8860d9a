import Foundation
import Testing
import TestSupport

/// The shipped defaults (Strategies/, Traces/default, Traces/video.json) are found from any
/// working directory, or the one line says where they were looked for.
@Suite(.tags(.cli), .selectedByTags) struct DefaultsTests {
    static let run = ["compare", "--strategies", "conservative", "bba", "--quiet"]

    @Test func aCompareFromAnotherFolderFindsTheDefaultsBesideTheBinary() throws {
        let elsewhere = try CLI.temporaryFolder()
        let here = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere); try? FileManager.default.removeItem(at: here) }
        let away = try CLI.run(Self.run + ["--out", "results"], directory: elsewhere)
        #expect(away.status == 0, "\(away.stderr)")
        let home = try CLI.run(Self.run + ["--out", here.path])
        #expect(home.status == 0, "\(home.stderr)")
        for file in ["sessions.csv", "segments.csv", "summary.csv"] {
            let a = try CLI.read(elsewhere.appendingPathComponent("results").appendingPathComponent(file))
            #expect(a == (try CLI.read(here.appendingPathComponent(file))), "\(file) differs when run from another folder")
        }
    }

    @Test func abrlabHomeNamesTheFolderOfTheDefaults() throws {
        let elsewhere = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let found = try CLI.run(
            Self.run + ["--out", "results"], environment: ["ABRLAB_HOME": CLI.packageRoot.path], directory: elsewhere
        )
        #expect(found.status == 0, "\(found.stderr)")
        let missing = try CLI.run(Self.run + ["--out", "missing"], environment: ["ABRLAB_HOME": "/nonexistent"], directory: elsewhere)
        #expect(missing.status != 0)
        #expect(missing.stderr == "abrlab: /nonexistent/Traces/default: not found under ABRLAB_HOME (/nonexistent); "
            + "set ABRLAB_HOME to abrlab's repository, or name --traces\n")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("missing").path))
    }
}
