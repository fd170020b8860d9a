import Foundation
import Testing
import TestSupport

/// `genet` from the command line: Genet's harness recipe on Pensieve's 142 test traces, and its
/// parameters' errors.
@Suite(.tags(.cli), .selectedByTags) struct GenetCommandTests {
    /// The recipe docs/strategies.md gives — `--profile pensieve --qoe linear --rebuffer-penalty
    /// 10 --first-level 1` — with the default model (Genet's simulation model in the
    /// shared datasets), argmax and sampled: every chunk's level and every session's total as
    /// Genet's harness (GenetReferenceFixture), the same bytes whatever --jobs.
    @Test(.tags(.datasets, .reference, .scale), .needsDatasets("genet"), .needsDatasets("pensieve"))
    func genetsHarnessRecipeReproducesItsSessions() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let pensieve = Datasets.url("pensieve").path
        let recipe = [
            "compare", "--profile", "pensieve", "--qoe", "linear", "--rebuffer-penalty", "10", "--first-level", "1",
            "--param", "genet.action=sampled,argmax", "--strategies", "genet",
            "--video", "\(pensieve)/video_sizes", "--traces", "\(pensieve)/cooked_test_traces", "--quiet",
        ]
        let one = try CLI.run(recipe + ["--jobs", "1", "--out", out.appendingPathComponent("one").path])
        #expect(one.status == 0, "\(one.stderr)")
        let two = try CLI.run(recipe + ["--jobs", "2", "--out", out.appendingPathComponent("two").path])
        #expect(two.status == 0, "\(two.stderr)")
        for file in ["sessions.csv", "segments.csv"] {
            #expect(try CLI.read(out.appendingPathComponent("one/\(file)")) == CLI.read(out.appendingPathComponent("two/\(file)")), "\(file) differs with --jobs")
        }
        let sessions = try Self.rows(out.appendingPathComponent("one/sessions.csv"))
        let segments = try Self.rows(out.appendingPathComponent("one/segments.csv"))
        var totals: [String: Double] = [:]
        for row in sessions { totals["\(row["strategy"]!) \(row["trace"]!)"] = Double(row["qoe_total"]!) }
        var levels: [String: String] = [:]
        for row in segments { levels["\(row["strategy"]!) \(row["trace"]!)", default: ""] += String(Int(row["level"]!)! - 1) }
        #expect(totals.count == 284)
        for reference in GenetReferenceFixture.simulation {
            for (action, played, total) in [("sampled", reference.sampledLevels, reference.sampledTotal), ("argmax", reference.argmaxLevels, reference.argmaxTotal)] {
                let key = "genet[action=\(action)] \(reference.name)"
                #expect(levels[key] == played, "\(key)")
                #expect(abs((totals[key] ?? .nan) - total) < 1e-9, "\(key): \(totals[key] ?? .nan) vs \(total)")
            }
        }
    }

    static func rows(_ file: URL) throws -> [[String: String]] {
        let lines = try CLI.read(file).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test(arguments: [
        (["--param", "genet.action=greedy"], "abrlab: --param: parameter genet.action needs sampled or sample or argmax, not 'greedy'\n"),
        (["--param", "genet.first_level=0"], "abrlab: --param: parameter genet.first_level needs a level from 1, not 0\n"),
        (["--param", "genet.model=missing.safetensors"], "abrlab: missing.safetensors: no such file\n"),
        (["--param", "genet.model=Strategies/models/pensieve.safetensors"],
         "abrlab: Strategies/models/pensieve.safetensors: does not fit the genet layout: actor/Conv1D/W reads a history of 8 columns (shape [4, 1, 8, 128]) but the genet layout declares 6\n"),
    ])
    func badParametersGetOneLineAndWriteNothing(arguments: [String], message: String) throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let target = out.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "genet", "--out", target.path, "--quiet"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// Without the shared datasets (here: abrlab's home elsewhere) the default model is absent,
    /// and the message says Genet's models are not shipped and how to name one.
    @Test func anAbsentDefaultModelSaysHowToNameOne() throws {
        let home = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let target = home.appendingPathComponent("results")
        let trace = CLI.packageRoot.appendingPathComponent("Traces/default/3g_1.csv").path
        let result = try CLI.run(["compare", "--strategies", "genet", "--traces", trace, "--video", "pensieve-cbr", "--out", target.path, "--quiet"], environment: ["ABRLAB_HOME": home.path])
        #expect(result.status != 0)
        let model = home.appendingPathComponent("../shared/datasets/genet/genet_abr_nn_model_ep_9900_actor.safetensors").path
        #expect(result.stderr == "abrlab: --param: genet's default model \(model) is not there; Genet's models are not shipped with abrlab: name one with genet.model=FILE\n")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
