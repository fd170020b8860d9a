import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli, .golden), .selectedByTags) struct CompareTests {
    static let nativeRun = [
        "compare", "--strategies", "conservative", "bba-native", "--traces", "Traces/default",
        "--video", "Traces/video.json", "--baseline", "conservative", "--quiet",
    ]

    @Test func writesGoldenResultsWhateverTheJobCount() throws {
        let one = try CLI.temporaryFolder()
        let two = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: two) }
        let first = try CLI.run(Self.nativeRun + ["--out", one.path, "--jobs", "1"])
        let second = try CLI.run(Self.nativeRun + ["--out", two.path, "--jobs", "2"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        for file in ["sessions.csv", "segments.csv", "transitions.csv", "summary.csv"] {
            let a = try CLI.read(one.appendingPathComponent(file))
            #expect(a == (try CLI.read(two.appendingPathComponent(file))), "\(file) depends on --jobs")
        }
        try CLI.expectGolden(try CLI.read(one.appendingPathComponent("sessions.csv")), "compare-native-sessions.csv")
        try CLI.expectGolden(try CLI.read(one.appendingPathComponent("summary.csv")), "compare-native-summary.csv")
        let header = try CLI.read(one.appendingPathComponent("segments.csv")).split(separator: "\n").first.map(String.init)
        #expect(header == "strategy,trace,segment,level,bitrate_kbps,size_bytes,download_start_s,download_end_s,download_time_s,latency_s,throughput_kbps,buffer_before_s,buffer_after_s,rebuffer_s,wait_s,buffer_state,buffer_progress,fill_rate_s_per_s,likely_to_keep_up,network_active_share,estimate_kbps,network_quality,qoe,requests,wasted_bytes,replaced_level,live_latency_s,playback_rate,playhead_s,production_wait_s")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: one.appendingPathComponent("run.json"))) as? [String: Any]
        #expect(manifest?["seed"] as? Int == 1)
        #expect((manifest?["strategies"] as? [[String: Any]])?.count == 2)
    }

    @Test func printsARankedTable() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.launch(Array(Self.nativeRun.dropLast()) + ["--out", out.path, "--jobs", "2"])
        #expect(result.status == 0)
        try CLI.expectGolden(result.stdout.replacingOccurrences(of: out.path, with: "OUT"), "compare-native-table.txt")
    }

    /// Two encodes that share a file name read apart: the table names the video as given and
    /// its shape, and a merged run's table says the same from run.json.
    @Test func theTableNamesTheVideoByItsPathAndShape() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, duration) in [("enc-2s", "2"), ("enc-4s", "4")] {
            let video = folder.appendingPathComponent("\(name)/video.json")
            try FileManager.default.createDirectory(at: video.deletingLastPathComponent(), withIntermediateDirectories: true)
            let generated = try CLI.run(["videos", "generate", "--out", video.path, "--segment-duration-s", duration, "--segments", "20"])
            #expect(generated.status == 0, "\(generated.stderr)")
            let result = try CLI.run([
                "compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", video.path,
                "--segments", "12", "--out", folder.appendingPathComponent("out-\(name)").path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "profile default, QoE linear, video \(name)/video.json (6 levels 300–4300 kbps, 20 segments of \(duration) s, 12 played), traces Traces/default/3g_1.csv", "\(lines)")
            #expect(lines.contains { $0.hasPrefix("columns, each a mean over sessions (docs/output.md): QoE = session total of linear per-segment scores") })
        }
    }

    @Test(arguments: [
        (["--traces", "Traces/nope"], "abrlab: Traces/nope: no such file or folder\n"),
        (["--strategies", "nope"], "abrlab: nope: no such strategy: not a native id (conservative, bba-native, robust_mpc-native, pensieve-native, genet, mlp, sabre/bola-native, sabre/bolae-native, sabre/dynamic-native, sabre/dynamicdash-native, sabre/throughput-native, dashjs, dashjs/bola, dashjs/throughput, dashjs/l2a, dashjs/lolp), the id of a script in Strategies/ (see abrlab strategies list), nor a Lua file or folder\n"),
        (["--param", "broken"], "abrlab: --param: 'broken' is not of the form id.key=value\n"),
        (["--profile", "fast"], "abrlab: --profile: 'fast' is not one of default, pensieve, sabre, live, twitch-challenge, dashjs\n"),
        (["--video", "Traces/missing.json"], nil),
        (["--profile", "pensieve", "--segments", "100"], "abrlab: --segments: video: the video has 48 segments but the session plays 100; play 48 with --segments 48\n"),
        (["--segments", "0"], "abrlab: --segments: must be from 1 to 10000000\n"),
    ] as [([String], String?)])
    func badInputGetsOneLineAndWritesNothing(arguments: [String], message: String?) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let base = ["compare", "--strategies", "conservative", "--traces", "Traces/default", "--video", "Traces/video.json", "--out", out.path]
        let result = try CLI.run(base + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("abrlab: "))
        if let message { #expect(result.stderr == message) }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }

    @Test func unparsableTraceNamesFileAndLine() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "0.0 1.0\n1.0 abc\n".write(to: folder.appendingPathComponent("bad_trace"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", folder.path, "--video", "Traces/video.json", "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad_trace:2:"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}

extension CompareTests {
    @Test func bufferTimelineAndQoEWeightsAreOptions() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--strategies", "bba-native", "--traces", "Traces/default/4g_1.csv", "--video", "Traces/video.json",
            "--buffer-timeline", "--rebuffer-penalty", "10", "--smoothness-penalty", "0", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let timeline = try CLI.read(out.appendingPathComponent("buffer_timeline.csv")).split(separator: "\n")
        #expect(timeline.first == "strategy,trace,time_s,buffer_s,buffer_state,progress,fill_rate_s_per_s,likely_to_keep_up,network_active")
        // 10 Hz over the whole session: consecutive rows 0.1 s apart.
        let times = timeline.dropFirst().prefix(3).map { Double($0.split(separator: ",")[2]) ?? -1 }
        #expect(times == [0, 0.1, 0.2])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        #expect(manifest?["rebuffer_penalty"] as? Double == 10)
        #expect(manifest?["smoothness_penalty"] as? Double == 0)
    }

    /// `pensieve-native.model=/abs/path` needs no default model, wherever the run starts; the
    /// default is read only when no model is given, and found wherever the other defaults are.
    @Test func aNativeModelGivenByPathNeedsNoDefaultModel() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("actor.safetensors")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Strategies/models/pensieve.safetensors"), to: model)
        let run = [
            "compare", "--strategies", "pensieve-native", "--traces", CLI.packageRoot.appendingPathComponent("Traces/default/3g_1.csv").path,
            "--video", "pensieve-cbr", "--quiet",
        ]
        let given = try CLI.run(run + ["--param", "pensieve-native.model=\(model.path)", "--out", "given"], directory: folder)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(try CLI.read(folder.appendingPathComponent("given/run.json")).contains("\"path\" : \"\(model.path)\""))
        // Beside the binary the default model is found; under an ABRLAB_HOME without it, it is not.
        let found = try CLI.run(run + ["--out", "default"], directory: folder)
        #expect(found.status == 0, "\(found.stderr)")
        let missing = try CLI.run(run + ["--out", "missing"], environment: ["ABRLAB_HOME": folder.path], directory: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "abrlab: \(folder.path)/Strategies/models/pensieve.safetensors: no such file\n")
    }
}
