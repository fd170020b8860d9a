import ABRLab
import ABRLabLua
import Testing
import TestSupport

/// `on_playback(playback)` on the live profile: what it sees, the rate it sets, its ticks while a
/// chunk is on its way, its bad results (with the line of `on_playback`), and that it is never
/// called off live.
@Suite(.tags(.lua), .selectedByTags) struct LuaPlaybackHookTests {
    /// A 3 s outage at 2 s on an otherwise fast link.
    static func outage() throws -> NetworkTrace {
        try NetworkTrace(name: "outage", periods: [
            TracePeriod(durationSeconds: 2, bandwidthBitsPerSecond: 1e9), TracePeriod(durationSeconds: 3, bandwidthBitsPerSecond: 0),
            TracePeriod(durationSeconds: 3, bandwidthBitsPerSecond: 1e9),
        ])
    }

    static func run(_ script: LuaScript, profile: EmulationProfile = .live) throws -> SessionResult {
        var strategy = script.makeStrategy()
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: "hook", trace: outage(), video: LuaLiveTests.video())
    }

    /// Every update sees a consistent player; during the outage the updates come every chunk
    /// duration (1/30 s) with nothing arriving, and the player is seen stalled there. The rate
    /// it returns holds from the first update on.
    static let watcher = """
        local M = {}
        local last_now, ticks_in_outage, stalled_seen = -1, 0, false
        function M.choose(ctx)
          if ctx.elapsed_s > 5.1 then assert(ticks_in_outage >= 70 and stalled_seen) end
          return 1
        end
        function M.on_playback(p)
          assert(p.now_s >= last_now and p.target_latency_s == 1.5)
          assert(math.abs(p.live_latency_s - (p.now_s + 1.5 - p.playhead_s)) < 1e-9)
          assert(p.buffer_s >= 0 and p.chunks_arrived >= 0 and p.chunks_arrived <= 15 and p.segment_index >= 1)
          if p.now_s > 2.04 and p.now_s < 4.5 then
            ticks_in_outage = ticks_in_outage + 1
            local phase = p.now_s * 30
            assert(math.abs(phase - math.floor(phase + 0.5)) < 1e-6, "ticks fall on chunk boundaries")
          end
          if p.stalled then stalled_seen = true end
          return 0.9
        end
        return M
        """

    @Test func updatesTickThroughAnOutageAndTheirRateHolds() throws {
        let folder = try ScriptFolder()
        let result = try Self.run(folder.load("watch.lua", Self.watcher))
        #expect(result.stallCount >= 1)
        #expect(result.liveChunks.dropFirst().allSatisfy { $0.playbackRate == 0.9 })
    }

    @Test(arguments: [
        ("3", "on_playback returned a playback rate of 3; rates are nil or 0.5…2"),
        ("0.25", "on_playback returned a playback rate of 0.25; rates are nil or 0.5…2"),
        ("0/0", "on_playback returned a playback rate of"),
        ("'fast'", "on_playback returned a playback rate of a string value; rates are nil or 0.5…2"),
    ])
    func badRatesEndTheSessionAtTheHooksLine(rate: String, message: String) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("bad.lua", "local M = {}\nfunction M.choose(ctx) return 1 end\nfunction M.on_playback(p)\n  return \(rate)\nend\nreturn M\n")
        let error = try #require(throws: EmulationError.self) { try Self.run(script) }
        #expect(error.description.contains("bad.lua:3: \(message)"), "\(error.description)")
    }

    @Test func neverCalledOffLive() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("vod.lua", "return { choose = function(ctx) return 1 end, on_playback = function(p) error('called') end }")
        #expect(try Self.run(script, profile: .default).segments.count > 0)
    }
}
