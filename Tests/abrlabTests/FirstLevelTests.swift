import Foundation
import Testing
import TestSupport

/// `--first-level N` starts every strategy alike: each session's first segment plays at level N
/// without asking the strategy, native or Lua, learned or rule; unset, each keeps its own start.
@Suite(.tags(.cli), .selectedByTags) struct FirstLevelTests {
    /// The level of the first segment of every session in `out`'s segments.csv, by strategy.
    static func firstLevels(in out: URL) throws -> [String: Set<Int>] {
        let rows = try CLI.read(out.appendingPathComponent("segments.csv")).split(separator: "\n").dropFirst()
        var levels: [String: Set<Int>] = [:]
        for row in rows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields[2] == "1", let level = Int(fields[3]) else { continue }
            levels[String(fields[0]), default: []].insert(level)
        }
        return levels
    }

    /// A one-layer MLP policy whose bias always picks the top level of six, in the layout
    /// `mlp.model` reads (a safetensors file of `layers.0.weight` [6, 48] and `layers.0.bias` [6]).
    static func topLevelPolicy(in folder: URL) throws -> URL {
        let weights = [Float](repeating: 0, count: 6 * 48)
        let bias: [Float] = [0, 0, 0, 0, 0, 1]
        let header = #"{"__metadata__":{"activation":"relu"},"layers.0.bias":{"dtype":"F32","shape":[6],"data_offsets":[1152,1176]},"layers.0.weight":{"dtype":"F32","shape":[6,48],"data_offsets":[0,1152]}}"#
        var data = Data()
        withUnsafeBytes(of: UInt64(header.utf8.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: Array(header.utf8))
        for value in weights + bias { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        let url = folder.appendingPathComponent("top.safetensors")
        try data.write(to: url)
        return url
    }

    @Test func everyStrategyStartsAtTheGivenLevel() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.topLevelPolicy(in: folder)
        // The seed's rule in Lua, by another name than the native one's.
        let script = folder.appendingPathComponent("conservative_lua.lua")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Strategies/conservative.lua"), to: script)
        let strategies = [
            "conservative", "bba-native", "robust_mpc-native", "pensieve-native", "mlp", "sabre/bola-native", "sabre/bolae-native",
            "sabre/dynamic-native", "sabre/dynamicdash-native", "sabre/throughput-native", "bba", "bola", "dynamic", "festive",
            "pensieve", "rb", "robust_mpc", "throughput", "sabre/bola", "sabre/bolae", "sabre/dynamic", "sabre/dynamicdash",
            "sabre/throughput", "shared/panda",
        ]
        let base = ["compare", "--strategies"] + strategies + [script.path,
            "--param", "mlp.model=\(model.path)", "--traces", "Traces/3g/3g_1.csv", "Traces/3g/3g_2.csv", "--video", "Traces/video.json",
            "--segments", "6", "--quiet",
        ]
        for level in [1, 3, 6] {
            let out = folder.appendingPathComponent("level-\(level)")
            let result = try CLI.run(base + ["--first-level", "\(level)", "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            let levels = try Self.firstLevels(in: out)
            #expect(levels.count == strategies.count + 1, "\(levels.keys.sorted())")
            for (strategy, first) in levels {
                #expect(first == [level], "\(strategy) started at \(first.sorted()), not \(level)")
            }
        }
        // Unset, the policy chooses its own first level (the top one); the rules keep theirs.
        let own = folder.appendingPathComponent("own")
        #expect(try CLI.run(base + ["--out", own.path]).status == 0)
        let levels = try Self.firstLevels(in: own)
        #expect(levels["mlp"] == [6])
        #expect(levels["pensieve-native"] == [2])
    }

    @Test func liveStrategiesStartAtTheGivenLevel() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("live")
        let result = try CLI.run([
            "compare", "--profile", "live", "--strategies", "live/l2a", "live/ll-throughput", "live/lolp", "conservative",
            "--traces", "Traces/twitch-ll", "--video", "twitch-ll", "--first-level", "3", "--out", out.path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let levels = try Self.firstLevels(in: out)
        #expect(levels.count == 4)
        for (strategy, first) in levels { #expect(first == [3], "\(strategy) started at \(first.sorted())") }
    }

    /// A strategy whose own first level is the one given plays exactly as it does unset: the
    /// setting replaces the start, and nothing else.
    @Test(arguments: ["pensieve-native", "bba-native", "robust_mpc-native", "bba"])
    func theGivenLevelEqualToAStrategysOwnChangesNothing(strategy: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = ["compare", "--strategies", strategy, "--traces", "Traces/3g", "--video", "Traces/video.json", "--quiet"]
        let own = folder.appendingPathComponent("own")
        let given = folder.appendingPathComponent("given")
        #expect(try CLI.run(run + ["--out", own.path]).status == 0)
        #expect(try CLI.run(run + ["--first-level", "2", "--out", given.path]).status == 0)
        for file in ["sessions.csv", "segments.csv", "transitions.csv"] {
            #expect(try CLI.read(own.appendingPathComponent(file)) == CLI.read(given.appendingPathComponent(file)), "\(file) differs")
        }
        let manifest = try CLI.read(given.appendingPathComponent("run.json"))
        #expect(manifest.contains(#""first_level" : 2"#), "run.json records the setting")
    }

    @Test(arguments: [
        (["--first-level", "7"], "abrlab: --first-level: video: the first level is 7 but the video has 6 levels (1…6)\n"),
        (["--first-level", "0"], nil),
    ] as [([String], String?)])
    func aLevelTheVideoLacksIsRefused(arguments: [String], message: String?) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["compare", "--strategies", "bba", "--traces", "Traces/3g/3g_1.csv", "--video", "Traces/video.json", "--out", out.path] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--first-level"), "\(result.stderr)")
        if let message { #expect(result.stderr == message) }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }
}
