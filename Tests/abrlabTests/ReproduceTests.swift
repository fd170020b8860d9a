import Foundation
import Testing
import TestSupport

/// `abrlab reproduce`: fetches what is missing from a local mirror and prints abrlab's figures
/// beside the reference's own; a row that disagrees is a non-zero exit.
@Suite(.tags(.cli, .datasets, .reference), .selectedByTags, .needsDatasets("pensieve")) struct ReproduceTests {
    let folder: URL
    let environment: [String: String]

    init() throws {
        folder = try CLI.temporaryFolder()
        environment = ["ABRLAB_DATASETS": folder.appendingPathComponent("cache").path]
    }

    @Test func pensieveFromAMirrorPrintsTheThreeRowsInAgreement() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try MirrorServer(root: Datasets.root)
        defer { server.stop() }
        let reproduced = try CLI.launch(["reproduce", "pensieve", "--from", server.url.absoluteString, "--quiet"], environment: environment)
        #expect(reproduced.status == 0, "\(reproduced.stderr)")
        let lines = reproduced.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines.first == "Pensieve's simulator on its 142 test traces: mean total linear QoE per session (--profile pensieve)")
        for (strategy, value) in [("bba-native", "13.35"), ("robust_mpc-native", "22.90"), ("pensieve-native", "27.5626")] {
            let row = try #require(lines.first { $0.hasPrefix("pensieve/test  \(strategy) ") }, "no row for \(strategy)")
            #expect(row.hasSuffix("qoe_total" + String(repeating: " ", count: 11 - value.count) + value + String(repeating: " ", count: 9 - value.count) + value + "     agrees"), "\(row)")
        }
        #expect(lines.last == "3 of 3 rows agree, to the reference's printed digits; figures and provenance: Datasets/reproduce/pensieve.json")
        #expect(reproduced.stderr == "abrlab: fetching pensieve/test\nabrlab: fetching pensieve/video\nabrlab: fetching pensieve/model\n")
    }

    @Test(.tags(.scale), .needsDatasets("sabre")) func sabreFromAFolderPrintsItsThirtyRowsInAgreement() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let reproduced = try CLI.launch(["reproduce", "sabre", "--from", Datasets.root.path, "--quiet"], environment: environment)
        #expect(reproduced.status == 0, "\(reproduced.stderr)")
        let rows = reproduced.stdout.split(separator: "\n").filter { $0.hasPrefix("example ") || $0.hasPrefix("3g ") || $0.hasPrefix("4g ") }
        #expect(rows.count == 30 && rows.allSatisfy { $0.hasSuffix("     agrees") }, "\(reproduced.stdout)")
        #expect(reproduced.stdout.hasSuffix("30 of 30 rows agree, to the reference's printed digits; figures and provenance: Datasets/reproduce/sabre.json\n"))
    }

    /// A reference figure abrlab does not reproduce: the row says so and the exit status is 1.
    @Test func aRowThatDisagreesIsANonZeroExit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Datasets/reproduce"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("Strategies"), withDestinationURL: PackageRoot.file("Strategies"))
        try FileManager.default.createSymbolicLink(
            at: home.appendingPathComponent("Datasets/registry.json"), withDestinationURL: PackageRoot.file("Datasets/registry.json")
        )
        let reproduction = """
            {"name": "pensieve", "title": "BB only, one figure off", "provenance": "a test",
             "runs": [{"label": "t", "profile": "pensieve", "traces": ["pensieve/test"], "video": "pensieve/video", "strategies": ["bba-native"], "params": []}],
             "rows": [{"run": "t", "strategy": "bba-native", "metric": "qoe_total", "value": "13.36", "source": "not bb.py"}]}
            """
        try Data(reproduction.utf8).write(to: home.appendingPathComponent("Datasets/reproduce/pensieve.json"))
        var environment = environment
        environment["ABRLAB_HOME"] = home.path
        let reproduced = try CLI.launch(["reproduce", "pensieve", "--from", Datasets.root.path, "--quiet"], environment: environment)
        #expect(reproduced.status == 1)
        #expect(reproduced.stdout.contains("t    bba-native  not bb.py       qoe_total      13.36   13.35    DIFFERS\n"), "\(reproduced.stdout)")
        #expect(reproduced.stdout.hasSuffix("0 of 1 rows agree, to the reference's printed digits; figures and provenance: Datasets/reproduce/pensieve.json\n"))
        #expect(reproduced.stderr.hasSuffix("abrlab: reproduce pensieve: 1 of 1 rows disagree with the reference\n"))
    }

    /// Every changed file is named, as `datasets verify` names them, not only the first.
    @Test func aTamperedCopyStopsItNamingEveryChangedFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fetched = try CLI.launch(["datasets", "fetch", "pensieve/test", "pensieve/video", "pensieve/model", "--from", Datasets.root.path], environment: environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let video = folder.appendingPathComponent("cache/pensieve/video")
        for name in ["video_size_1", "video_size_3"] {
            let handle = try FileHandle(forWritingTo: video.appendingPathComponent(name))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("1\n".utf8))
            try handle.close()
        }
        let sizes = try ["video_size_1", "video_size_3"].map { try Data(contentsOf: video.appendingPathComponent($0)).count }
        let reproduced = try CLI.launch(["reproduce", "pensieve", "--quiet"], environment: environment)
        #expect(reproduced.status == 1)
        #expect(reproduced.stderr == "abrlab: pensieve/video: 2 files differ from the registry: video_size_1: \(sizes[0]) bytes, not the registry's; "
            + "video_size_3: \(sizes[1]) bytes, not the registry's; run: abrlab datasets fetch --force pensieve/video\n")
    }

    @Test func anUnknownReproductionListsTheKnownOnes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = try CLI.launch(["reproduce", "genet"], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr == "abrlab: genet: not a known reproduction; known: pensieve, sabre\n")
    }
}
