import ABRLab
import ABRLabFormats
import ABRLabLua
import Testing
import TestSupport

/// The live fields of session, ctx and report, and choose's playback rate, on the live profile
/// and off it.
@Suite(.tags(.lua), .selectedByTags) struct LuaLiveTests {
    static func video() throws -> Video { try VideoPreset.twitchLL.video(segmentCount: 4) }

    static func trace() throws -> NetworkTrace {
        try NetworkTrace(name: "flat", periods: [TracePeriod(durationSeconds: 10, bandwidthBitsPerSecond: 1200 * 1024)])
    }

    static func run(_ script: LuaScript, profile: EmulationProfile = .live) throws -> SessionResult {
        var strategy = script.makeStrategy()
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: "live", trace: trace(), video: video())
    }

    static let liveChecks = """
        local function near(a, b) return math.abs(a - b) < 1e-9 end
        local M = {}
        local chunks_seen = 0
        function M.setup(session)
          assert(session.live == true and session.target_latency_s == 1.5)
          assert(near(session.chunk_duration_s, 0.5 / 15) and session.segment_count == 20)
        end
        function M.choose(ctx)
          assert(ctx.live == true and ctx.throughput_method == "chunk")
          assert(ctx.target_latency_s == 1.5 and near(ctx.chunk_duration_s, 0.5 / 15))
          assert(type(ctx.live_latency_s) == "number" and type(ctx.playback_rate) == "number")
          assert(near(ctx.live_latency_s, ctx.live_edge_s - ctx.playhead_s) or ctx.live_latency_s > ctx.live_edge_s - ctx.playhead_s)
          if ctx.segment_index == 1 then
            assert(#ctx.last_chunks == 0 and ctx.playhead_s == 0 and ctx.live_latency_s == 1.5)
          else
            assert(#ctx.last_chunks == 15 and chunks_seen == 15)
            local previous = 0
            for _, chunk in ipairs(ctx.last_chunks) do
              assert(math.type(chunk.size_bytes) == "integer" and chunk.size_bytes > 0)
              assert(chunk.first_byte_s >= chunk.available_s - 1e-12 and chunk.arrival_s > chunk.first_byte_s)
              assert(chunk.first_byte_s >= previous)
              previous = chunk.arrival_s
            end
            assert(ctx.playback_rate == 1.25, "the rate returned last time holds: " .. ctx.playback_rate)
          end
          return 1, nil, 1.25
        end
        function M.on_download(report)
          chunks_seen = #report.chunks
          local total = 0
          for _, chunk in ipairs(report.chunks) do total = total + chunk.size_bytes end
          assert(total == report.size_bytes)
        end
        return M
        """

    @Test func liveFieldsAndPlaybackRate() throws {
        let folder = try ScriptFolder()
        let result = try Self.run(folder.load("live.lua", Self.liveChecks))
        #expect(result.segments.count == 20)
        #expect(result.liveChunks.dropFirst().allSatisfy { $0.playbackRate == 1.25 })
    }

    static let onDemand = """
        return {
          setup = function(session)
            assert(session.live == false and session.target_latency_s == nil and session.chunk_duration_s == nil)
          end,
          choose = function(ctx)
            assert(ctx.live == false and ctx.throughput_method == "segment")
            assert(ctx.live_latency_s == nil and ctx.target_latency_s == nil and ctx.playback_rate == nil)
            assert(ctx.live_edge_s == nil and ctx.playhead_s == nil and ctx.chunk_duration_s == nil and ctx.last_chunks == nil)
            return 1
          end,
          on_download = function(report) assert(report.chunks == nil) end,
        }
        """

    @Test func liveFieldsReadAsNilOnDemand() throws {
        let folder = try ScriptFolder()
        let result = try Self.run(folder.load("vod.lua", Self.onDemand), profile: .default)
        #expect(result.segments.count == 4)
    }

    @Test(arguments: [
        ("3", "choose returned a playback rate of 3; rates are nil or 0.5…2"),
        ("0.25", "choose returned a playback rate of 0.25; rates are nil or 0.5…2"),
        ("'fast'", "choose returned a playback rate of a string value; rates are nil or 0.5…2"),
    ])
    func badRatesAreErrors(rate: String, message: String) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("bad.lua", "return { choose = function(ctx) return 1, 0, \(rate) end }")
        let error = try #require(throws: EmulationError.self) { try Self.run(script) }
        #expect(error.description.contains(message), "\(error.description)")
    }

    @Test func aRateOffLiveIsAnError() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("rate.lua", "return { choose = function(ctx) return 1, 0, 1.1 end }")
        let error = try #require(throws: EmulationError.self) { try Self.run(script, profile: .default) }
        #expect(error.description.contains("rates need the live profile"), "\(error.description)")
    }
}
