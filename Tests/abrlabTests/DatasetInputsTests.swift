import Foundation
import Testing
import TestSupport

/// Dataset ids where inputs are taken: `--traces`, `--video` and a parameter's value name the
/// installed dataset, `run.json` records each id with the registry's hash, and a path wins.
@Suite(.tags(.cli, .datasets), .selectedByTags, .needsDatasets("pensieve")) struct DatasetInputsTests {
    let cache: URL
    let environment: [String: String]

    init() throws {
        cache = try CLI.temporaryFolder().appendingPathComponent("cache")
        environment = ["ABRLAB_DATASETS": cache.path]
    }

    static let strategies = ["--profile", "pensieve", "--strategies", "bba-native", "--quiet"]

    @Test func idsGiveTheSameSessionsAsPathsIntoTheSharedDatasets() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let fetched = try CLI.launch(["datasets", "fetch", "pensieve/test", "pensieve/video", "pensieve/model", "--from", Datasets.root.path], environment: environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let byID = cache.deletingLastPathComponent().appendingPathComponent("by-id")
        let byPath = cache.deletingLastPathComponent().appendingPathComponent("by-path")
        let ids = try CLI.launch(
            ["compare"] + Self.strategies + ["--traces", "pensieve/test", "--video", "pensieve/video", "--out", byID.path], environment: environment
        )
        #expect(ids.status == 0, "\(ids.stderr)")
        let paths = try CLI.launch(
            ["compare"] + Self.strategies + [
                "--traces", Datasets.url("pensieve/cooked_test_traces").path, "--video", Datasets.url("pensieve/video_sizes").path, "--out", byPath.path,
            ],
            environment: environment
        )
        #expect(paths.status == 0, "\(paths.stderr)")
        let sessions = try CLI.read(byID.appendingPathComponent("sessions.csv"))
        #expect(sessions.split(separator: "\n").count == 1 + 142)
        #expect(sessions == (try CLI.read(byPath.appendingPathComponent("sessions.csv"))))

        // The model by id, on one trace (the actor is slow in a debug build).
        let trace = Datasets.url("pensieve/cooked_test_traces/norway_bus_1").path
        let model = cache.deletingLastPathComponent().appendingPathComponent("model")
        let modelByPath = cache.deletingLastPathComponent().appendingPathComponent("model-by-path")
        let modelRun = ["compare", "--profile", "pensieve", "--strategies", "pensieve-native", "--quiet", "--traces", trace, "--video", "pensieve/video"]
        let byModelID = try CLI.launch(modelRun + ["--param", "pensieve-native.model=pensieve/model", "--out", model.path], environment: environment)
        #expect(byModelID.status == 0, "\(byModelID.stderr)")
        let modelFile = Datasets.url("pensieve/models/pretrain_linear_reward_actor.safetensors").path
        #expect(try CLI.launch(modelRun + ["--param", "pensieve-native.model=" + modelFile, "--out", modelByPath.path], environment: environment).status == 0)
        #expect(try CLI.read(model.appendingPathComponent("sessions.csv")) == (try CLI.read(modelByPath.appendingPathComponent("sessions.csv"))))
        let modelManifest = try JSONSerialization.jsonObject(with: Data(contentsOf: model.appendingPathComponent("run.json"))) as? [String: Any]
        let modelDatasets = try #require(modelManifest?["datasets"] as? [[String: String]])
        #expect(modelDatasets.map { $0["id"] } == ["pensieve/video", "pensieve/model"])

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: byID.appendingPathComponent("run.json"))) as? [String: Any]
        let datasets = try #require(manifest?["datasets"] as? [[String: String]])
        #expect(datasets.map { $0["id"] } == ["pensieve/test", "pensieve/video"])
        #expect(datasets.map { $0["sha256"] } == [
            "f0c244405a2754484fa5aab87e55cdf7e7cdc4f26fa8a24eb49573ce4aa2badb", "2bda2641e71e9e1cdb0b382ec7a93dd8f813e6eac7d15afb208ba78bd753d401",
        ])
        let other = try JSONSerialization.jsonObject(with: Data(contentsOf: byPath.appendingPathComponent("run.json"))) as? [String: Any]
        #expect(other?["datasets"] == nil)
    }

    /// `ID/FILE` names one file of a fetched dataset, for `run` as for `--traces`.
    @Test func oneFileOfADatasetByIDPlaysAsTheFileDoes() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        #expect(try CLI.launch(["datasets", "fetch", "pensieve/test", "pensieve/video", "--from", Datasets.root.path], environment: environment).status == 0)
        let run = ["run", "--profile", "pensieve", "--strategy", "bba-native", "--video", "pensieve/video"]
        let byID = try CLI.launch(run + ["--trace", "pensieve/test/norway_bus_1"], environment: environment)
        #expect(byID.status == 0, "\(byID.stderr)")
        let byPath = try CLI.launch(run + ["--trace", Datasets.url("pensieve/cooked_test_traces/norway_bus_1").path], environment: environment)
        #expect(!byID.stdout.isEmpty && byID.stdout == byPath.stdout)
    }

    @Test func anIDNotYetFetchedSaysTheCommandThatFetchesIt() throws {
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let out = cache.deletingLastPathComponent().appendingPathComponent("out")
        for (arguments, id) in [(["--traces", "sabre/4g"], "sabre/4g"), (["--video", "pensieve/video"], "pensieve/video"), (["--param", "pensieve-native.model=pensieve/model"], "pensieve/model")] {
            let refused = try CLI.launch(["compare"] + Self.strategies + arguments + ["--out", out.path], environment: environment)
            #expect(refused.status == 1)
            #expect(refused.stderr == "abrlab: \(id): dataset not fetched yet; run: abrlab datasets fetch \(id)\n")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
        // A misspelt id, its prefix too, is answered with the closest id and the known ones.
        for name in ["pensieve/tset", "pensive/test"] {
            let misspelt = try CLI.launch(["traces", "info", name], environment: environment)
            #expect(misspelt.stderr.hasPrefix("abrlab: \(name): no such file or folder, nor a known dataset id; did you mean pensieve/test? known: pensieve/test, "))
        }
    }

    /// A folder named like an id, relative to the working folder, is read as the folder.
    @Test func aPathThatExistsWinsOverAnID() throws {
        let folder = cache.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("pensieve/test"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PackageRoot.file("Traces/3g/3g_1.csv"), to: folder.appendingPathComponent("pensieve/test/3g_1.csv"))
        let info = try CLI.launch(["traces", "info", "pensieve/test", "--csv"], environment: environment, directory: folder)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.split(separator: "\n").map { $0.split(separator: ",").first ?? "" } == ["trace", "3g_1", "(all 1)"])
    }
}
