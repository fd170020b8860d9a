import Foundation
import Testing
import TestSupport

/// run.json records every input by path and hash, the profile's parameters and typed parameters;
/// the pensieve profile warns about a video of another shape.
@Suite(.tags(.cli), .selectedByTags) struct RunManifestTests {
    static func sha256(_ path: String) throws -> String {
        let result = try CLI.runTool("/usr/bin/sha256sum", [path])
        return String(result.stdout.prefix(64))
    }

    static func absolute(_ path: String) -> String {
        CLI.packageRoot.appendingPathComponent(path).standardizedFileURL.path
    }

    @Test func recordsEveryInputWithItsHashTheProfileAndTypedParameters() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "Strategies/robust_mpc.lua", "conservative", "--traces", "Traces/default/3g_1.csv",
            "Traces/default/4g_1.csv", "--video", "Traces/video.json", "--param", "robust_mpc.horizon=3",
            "--param", "robust_mpc.rebuffer_penalty=8", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let inputs = try #require(run["inputs"] as? [String: Any])

        let video = try #require(inputs["video"] as? [String: Any])
        #expect(video["spec"] as? String == "Traces/video.json")
        let videoFiles = try #require(video["files"] as? [[String: Any]])
        #expect(videoFiles.map { $0["path"] as? String } == [Self.absolute("Traces/video.json")])
        #expect(videoFiles.first?["sha256"] as? String == (try Self.sha256("Traces/video.json")))
        #expect((video["sizes_sha256"] as? String)?.count == 64)

        let traces = try #require(inputs["traces"] as? [[String: Any]])
        #expect(traces.map { $0["name"] as? String } == ["3g_1", "4g_1"])
        let trace = try #require(traces.first?["file"] as? [String: Any])
        #expect(trace["path"] as? String == Self.absolute("Traces/default/3g_1.csv"))
        #expect(trace["sha256"] as? String == (try Self.sha256("Traces/default/3g_1.csv")))

        let strategies = try #require(run["strategies"] as? [[String: Any]])
        let mpc = try #require(strategies.first { $0["id"] as? String == "robust_mpc" })
        #expect((mpc["file"] as? [String: Any])?["sha256"] as? String == (try Self.sha256("Strategies/robust_mpc.lua")))
        #expect((mpc["inputs"] as? [Any])?.isEmpty == true)
        let params = try #require(mpc["params"] as? [[String: Any]])
        let horizon = try #require(params.first { $0["key"] as? String == "horizon" })
        #expect(horizon["type"] as? String == "integer")
        #expect(horizon["value"] as? Int == 3)
        #expect(horizon["default"] as? Int == 5)
        let penalty = try #require(params.first { $0["key"] as? String == "rebuffer_penalty" })
        #expect(penalty["type"] as? String == "number")
        #expect(penalty["value"] as? Double == 8)
        #expect(strategies.first { $0["id"] as? String == "conservative" }?["source"] as? String == "native")

        // Every parameter of the profile, under its explicit key.
        let profile = try #require(run["profile"] as? [String: Any])
        #expect(profile["name"] as? String == "default")
        for key in ["mechanics", "max_buffer_s", "segments_to_play", "max_session_s", "max_session_steps", "estimator"] {
            #expect(profile[key] != nil, "profile.\(key)")
        }
        let mechanics = try #require(profile["mechanics"] as? [String: Any])
        #expect(mechanics["model"] as? String == "whole_transfers")
        for key in ["payload_fraction", "latency", "latency_consumes_trace_time", "buffer_wait_step_s", "startup_threshold_s", "startup_counts_as_rebuffer"] {
            #expect(mechanics[key] != nil, "profile.mechanics.\(key)")
        }
        #expect((mechanics["latency"] as? [String: Any])?["from_trace_fallback_s"] != nil)
        // The settings by key, as given or declared.
        let settings = try #require(run["settings"] as? [String: Any])
        #expect(settings["profile"] as? String == "default")
        #expect(settings["max_buffer_s"] is NSNull, "the profile's, recorded under profile")
        #expect(run["format"] as? Int == 2)
    }

    /// Input hashes agree with sha256sum at lengths around SHA-256's 64-byte blocks and its
    /// padding (scripts padded with a comment to each length), and for a long file.
    /// Every native strategy records its parameters, the values in force and the defaults,
    /// which are its Lua twin's: RobustMPC's and BBA's alike play exactly like the scripts.
    @Test func nativeStrategiesRecordTheirParameters() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "robust_mpc-native", "robust_mpc", "bba-native", "bba", "conservative",
            "--param", "bba-native.cushion_s=12.5", "--param", "bba.cushion_s=12.5", "--traces", "Traces/default/3g_1.csv",
            "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let strategies = try #require(run["strategies"] as? [[String: Any]])
        func params(_ id: String) -> [String: (value: Double, default: Double)] {
            let entries = strategies.first { $0["id"] as? String == id }?["params"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
                guard let key = entry["key"] as? String, let value = entry["value"] as? Double, let fallback = entry["default"] as? Double else { return nil }
                return (key, (value, fallback))
            })
        }
        let mpc = params("robust_mpc-native")
        #expect(mpc.mapValues(\.default) == ["horizon": 5, "first_level": 2, "lookahead_offset": 1, "rebuffer_penalty": 4.3, "smoothness_penalty": 1])
        #expect(mpc.mapValues(\.default) == params("robust_mpc").mapValues(\.default))
        #expect(params("bba-native").mapValues(\.value) == ["reservoir_s": 5, "cushion_s": 12.5, "first_level": 2])
        #expect(params("bba-native").mapValues(\.default) == params("bba").mapValues(\.default))
        #expect(params("conservative").mapValues(\.default) == ["buffer_health_threshold": 0.7, "rebuffering_threshold": 0.05])
        // Twins with the same settings play the same sessions (all columns after strategy and seed).
        let rows = try CLI.read(out.appendingPathComponent("sessions.csv")).split(separator: "\n").dropFirst()
        func session(_ id: String) -> [Substring] {
            let fields = rows.first { $0.hasPrefix(id + ",") }?.split(separator: ",", omittingEmptySubsequences: false) ?? []
            return fields.enumerated().filter { ![0, 13].contains($0.offset) }.map(\.element)
        }
        #expect(session("robust_mpc-native") == session("robust_mpc"))
        #expect(session("bba-native") == session("bba"))

        let wide = try CLI.run(["compare", "--strategies", "robust_mpc-native", "--param", "robust_mpc-native.horizon=11", "--out", out.path, "--quiet"])
        #expect(wide.status == 1)
        #expect(wide.stderr == "abrlab: --param: parameter robust_mpc-native.horizon needs an integer from 1 to 10, not 11\n")
    }

    @Test func inputHashesAgreeWithSha256sumAtEveryLength() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = "return { choose = function(ctx) return 1 end }\n--"
        var scripts: [String] = []
        for length in [55, 56, 63, 64, 65, 119, 120, 128, 1000, 1 << 20] {
            let script = folder.appendingPathComponent("len\(length).lua")
            try Data((body + String(repeating: "x", count: length - body.utf8.count)).utf8).write(to: script)
            scripts.append(script.path)
        }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--strategies"] + scripts + ["--traces", "Traces/default/3g_1.csv", "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let files = try #require(run["strategies"] as? [[String: Any]]).compactMap { $0["file"] as? [String: Any] }
        #expect(files.count == scripts.count)
        for file in files {
            let path = try #require(file["path"] as? String)
            #expect(file["sha256"] as? String == (try Self.sha256(path)), "\(path)")
            #expect(file["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        }
    }

    /// The trace list is written by its own fast path; names and paths that need escaping
    /// still come back exactly.
    @Test func traceNamesThatNeedEscapingReadBackExactly() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("tr\\ces \"é\"")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let names = ["plain", "quote\"d", "back\\slash", "tab\there", "😀∕x"]
        for name in names {
            try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Traces/default/3g_1.csv"), to: traces.appendingPathComponent(name + ".csv"))
        }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", traces.path, "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let listed = try #require((run["inputs"] as? [String: Any])?["traces"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == names.sorted())
        #expect(listed.map { ($0["file"] as? [String: Any])?["path"] as? String } == names.sorted().map { traces.appendingPathComponent($0 + ".csv").path })
    }

    @Test func theEstimatorAndQoEWeightsAreRecordedUnderExplicitKeys() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--profile", "sabre", "--qoe", "sabre",
            "--gamma-p", "3", "--estimator", "sliding:3,5", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        #expect((run["profile"] as? [String: Any])?["estimator"] as? String == "sliding(3,5)")
        #expect((run["settings"] as? [String: Any])?["estimator"] as? String == "sliding:3,5")
        let qoe = try #require(run["qoe_model"] as? [String: Any])
        #expect(qoe["kind"] as? String == "sabre")
        #expect(qoe["gamma_p"] as? Double == 3)
    }

    @Test func modulesAndModelsAStrategyReadAreRecordedWithTheirHashes() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "Strategies/pensieve.lua", "pensieve-native", "--traces", "Traces/default/3g_1.csv",
            "--video", "pensieve-cbr", "--param", "pensieve-native.seed=7", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any])
        let strategies = try #require(run["strategies"] as? [[String: Any]])
        func inputs(_ id: String) -> [String: String] {
            let files = strategies.first { $0["id"] as? String == id }?["inputs"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: files.compactMap { file in
                (file["path"] as? String).flatMap { path in (file["sha256"] as? String).map { (path, $0) } }
            })
        }
        let model = Self.absolute("Strategies/models/pensieve.safetensors")
        let modelHash = try Self.sha256("Strategies/models/pensieve.safetensors")
        #expect(inputs("pensieve") == [Self.absolute("Strategies/lib/numpy_random.lua"): try Self.sha256("Strategies/lib/numpy_random.lua"), model: modelHash])
        #expect(inputs("pensieve-native") == [model: modelHash])
        // Native parameters are typed too, with their defaults.
        let native = try #require(strategies.first { $0["id"] as? String == "pensieve-native" }?["params"] as? [[String: Any]])
        let seed = try #require(native.first { $0["key"] as? String == "seed" })
        #expect(seed["type"] as? String == "integer")
        #expect(seed["value"] as? Int == 7)
        #expect(seed["default"] as? Int == 42)
    }

    @Test func thePensieveProfileWarnsOnceAboutAVideoOfAnotherShape() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let base = ["run", "--strategy", "conservative", "--trace", "Traces/default/3g_1.csv", "--profile", "pensieve"]
        let wrongLadder = try CLI.run(base + ["--video", "cbr:300,1200@4s"])
        #expect(wrongLadder.status == 0, "\(wrongLadder.stderr)")
        #expect(wrongLadder.stderr == "abrlab: warning: --profile pensieve with video 'cbr:300,1200@4s', which is not Pensieve's "
            + "(its ladder is [300, 1200] kbps, not [300, 750, 1200, 1850, 2850, 4300] kbps); pass Pensieve's video_size_N folder "
            + "with --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4\n")
        let shortSegments = try CLI.run(base + ["--video", "cbr:300,750,1200,1850,2850,4300@2s"])
        #expect(shortSegments.stderr.contains("its segments last 2 s, not 4 s"))
        #expect(shortSegments.stderr.split(separator: "\n").count == 1)
        // The CBR stand-in has Pensieve's shape; only its name says it is not Pensieve's video.
        let standIn = try CLI.run(base + ["--video", "pensieve-cbr"])
        #expect(standIn.status == 0)
        #expect(standIn.stderr == "")
        // The shipped video has Pensieve's ladder but synthetic sizes: --profile pensieve alone warns too.
        let compare = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--profile", "pensieve", "--out", out.path])
        #expect(compare.stderr == "abrlab: warning: --profile pensieve with video 'Traces/video.json', which is not Pensieve's (it is "
            + "abrlab's synthetic video with Pensieve's ladder, not Pensieve's sizes); pass Pensieve's video_size_N folder with "
            + "--ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4\n")
    }

    @Test func theOldPresetNameSaysWhereThePresetWent() throws {
        let result = try CLI.run(["run", "--strategy", "conservative", "--trace", "Traces/default/3g_1.csv", "--video", "pensieve"])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: pensieve: no such video; the CBR stand-in with Pensieve's ladder is the preset 'pensieve-cbr', "
            + "and Pensieve's own video is the folder of its video_size_N files\n")
    }

    @Test(.tags(.datasets, .reference), .needsDatasets("pensieve"))
    func runHelpsExampleReproducesPensievesNumber() throws {
        let result = try CLI.run([
            "run", "--strategy", "Strategies/bba.lua", "--trace", "../shared/datasets/pensieve/cooked_test_traces/norway_bus_1",
            "--profile", "pensieve", "--video", "../shared/datasets/pensieve/video_sizes",
            "--ladder-kbps", "300,750,1200,1850,2850,4300", "--segment-duration-s", "4",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.contains("QoE 77.8847 (linear"), "\(result.stdout.suffix(300))")
    }
}
