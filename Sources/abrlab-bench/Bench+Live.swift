import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFormats
import ABRLabLua
import Foundation

extension Bench {
    /// Live sessions of the Twitch challenge's five patterns per second on one core, against the
    /// real time the challenge's browser harness needs for the same sessions.
    func live() throws {
        print("live sessions over the Twitch challenge's five patterns (live profile, twitch-ll video, one thread)")
        let folder = URL(fileURLWithPath: Defaults.twitchTraces)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            print("  skipped: \(folder.path) not found")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        let traces = try files.map { name throws(InputError) in try TraceLoader.load(folder.appendingPathComponent(name)).trace }
        let video = try VideoPreset.twitchLL.video()
        let emulator = SessionEmulator(profile: .live, recordsTransitions: false)
        let realSeconds = traces.reduce(0) { $0 + $1.durationSeconds }
        var chunks = 0
        let nativeSeconds = try BenchmarkClock.bestSeconds {
            chunks = 0
            for trace in traces {
                var strategy = FixedLevelStrategy(level: 2)
                chunks += try emulator.run(&strategy, strategyID: "top", trace: trace, video: video).liveChunks.count
            }
        }
        report("native fixed level", seconds: nativeSeconds, sessions: traces.count, chunks: chunks, realSeconds: realSeconds)
        for name in ["ll-throughput", "l2a", "lolp"] {
            let path = "\(strategies)/live/\(name).lua"
            guard FileManager.default.fileExists(atPath: path) else {
                print("  skipped Lua: \(path) not found")
                continue
            }
            let script = try LuaStrategyLoader().load(path: path)
            let luaSeconds = try BenchmarkClock.bestSeconds {
                chunks = 0
                for trace in traces {
                    var strategy = LuaStrategy(script: script)
                    chunks += try emulator.run(&strategy, strategyID: name, trace: trace, video: video).liveChunks.count
                }
            }
            report("Lua \(name).lua", seconds: luaSeconds, sessions: traces.count, chunks: chunks, realSeconds: realSeconds)
        }
    }

    private func report(_ label: String, seconds: Double, sessions: Int, chunks: Int, realSeconds: Double) {
        print(String(
            format: "  %@: %.1f sessions/s (%d chunks each on average), the %d patterns in %.1f ms; the browser harness plays them in %.1f s of real time (%.0f× faster)",
            label, Double(sessions) / seconds, chunks / max(sessions, 1), sessions, seconds * 1000, realSeconds, realSeconds / seconds
        ))
    }
}
