import ABRLab
import ABRLabLua
import Foundation

extension Bench {
    /// A light Lua strategy (the library's bba.lua) called with the same context, sandbox limits on.
    func luaDecision(context: DecisionContext, calls: Int) throws {
        let path = "\(strategies)/bba.lua"
        guard FileManager.default.fileExists(atPath: path) else {
            print("  skipped Lua: \(path) not found")
            return
        }
        var strategy = LuaStrategy(script: try LuaStrategyLoader().load(path: path))
        try strategy.setUp(SessionInfo(
            video: context.video, segmentCount: context.segmentCount, traceName: "bench", profileName: "default",
            seed: 1, maxBufferSeconds: 60
        ))
        var context = context
        var sink = 0
        let seconds = try BenchmarkClock.bestSeconds {
            for call in 0..<calls {
                context.bufferSeconds = Double(call & 31)
                sink &+= try strategy.chooseLevel(context)
            }
        }
        print(String(format: "  Lua bba.lua: %.1f ns per decision (limits: %d instructions, %d MiB)",
                     seconds / Double(calls) * 1e9, LuaLimits.default.instructionsPerCall, LuaLimits.default.memoryBytesPerEngine >> 20))
        if sink == -1 { print(sink) }
    }

    /// Strategies/robust_mpc.lua with Pensieve's look-ahead over the same traces as the native run.
    func luaMPC(traces: [NetworkTrace], video: Video, emulator: SessionEmulator) throws {
        let path = "\(strategies)/robust_mpc.lua"
        guard FileManager.default.fileExists(atPath: path) else {
            print("  skipped Lua: \(path) not found")
            return
        }
        let script = try LuaStrategyLoader(overrides: ["robust_mpc": ["lookahead_offset": "1"]]).load(path: path)
        var total = 0.0
        let seconds = try BenchmarkClock.bestSeconds(repeats: 2) {
            total = 0
            for trace in traces {
                var strategy = LuaStrategy(script: script)
                let result = try emulator.run(&strategy, strategyID: "robust_mpc", trace: trace, video: video)
                total += SessionMetrics(result: result, qoe: .linear, ladder: video.ladder).qoeTotal
            }
        }
        let decisions = Double(traces.count * 48)
        print(String(format: "  Lua:    %.3f s for %d traces, %.2f µs per decision (mean QoE %.4f)",
                     seconds, traces.count, seconds / decisions * 1e6, total / Double(traces.count)))
    }
}
