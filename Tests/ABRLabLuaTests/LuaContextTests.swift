import ABRLab
import ABRLabLua
import Testing
import TestSupport

/// The tables scripts see: ctx per decision, report per download, session at setup. Each
/// script asserts the values the Swift side sent, so a wrong field fails with its line.
@Suite(.tags(.lua), .selectedByTags) struct LuaContextTests {
    static let ctxChecks = """
        local function near(a, b) return math.abs(a - b) < 1e-9 end
        return {
          choose = function(ctx)
            assert(math.type(ctx.segment_index) == "integer" and ctx.segment_index == 3)
            assert(ctx.segment_count == 10 and math.type(ctx.segment_count) == "integer")
            assert(ctx.segment_duration_s == 4)
            assert(ctx.level_count == 6 and #ctx.levels_kbps == 6)
            assert(ctx.levels_kbps[1] == 300 and ctx.levels_kbps[6] == 4300)
            assert(ctx.last_level == 5 and math.type(ctx.last_level) == "integer")
            assert(ctx.buffer_s == 7.5 and ctx.rebuffer_s == 0.25)
            assert(ctx.stall_count == 2 and math.type(ctx.stall_count) == "integer")
            assert(ctx.elapsed_s == 12.5)
            assert(ctx.estimate_kbps == 1750)
            assert(ctx.network_quality == "fair")
            assert(ctx.max_buffer_s == 60)
            assert(#ctx.throughputs_kbps == 2 and #ctx.download_times_s == 2 and #ctx.sizes_bytes == 2)
            assert(ctx.throughputs_kbps[1] == 1000 and ctx.throughputs_kbps[2] == 2000)
            assert(ctx.sizes_bytes[1] == 150000 and ctx.sizes_bytes[2] == 1425001)
            assert(math.type(ctx.sizes_bytes[1]) == "integer")
            assert(near(ctx.download_times_s[1], 1.2) and near(ctx.download_times_s[2], 5.700004))
            assert(ctx.size_bytes(1, 1) == 150000 and ctx.size_bytes(10, 6) == 2150009)
            assert(ctx:size_bytes(3, 2) == 375002)
            assert(ctx.size_bytes(11, 1) == 0 and ctx.size_bytes(1, 7) == 0 and ctx.size_bytes(0, 1) == 0)
            return 2
          end,
        }
        """

    @Test func ctxCarriesEveryFieldWithItsUnit() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("ctx.lua", Self.ctxChecks)
        let video = try Fixture.video()
        var strategy = script.makeStrategy()
        try strategy.setUp(Fixture.info(video))
        let downloads = [
            Fixture.download(segment: 0, level: 0, throughputKbps: 1000, video: video),
            Fixture.download(segment: 1, level: 4, throughputKbps: 2000, video: video),
        ]
        let context = DecisionContext(
            segmentIndex: 2, segmentCount: 10, segmentDurationSeconds: 4, ladder: video.ladder, lastLevel: 4,
            bufferSeconds: 7.5, rebufferSeconds: 0.25, stallCount: 2, elapsedSeconds: 12.5, estimateKbps: 1750,
            networkQuality: .fair, downloads: downloads, video: video
        )
        #expect(try strategy.chooseLevel(context) == 1)
    }

    static let history = """
        return {
          choose = function(ctx)
            local n = #ctx.throughputs_kbps
            assert(n == ctx.segment_index - 1, "history has " .. n .. " entries at segment " .. ctx.segment_index)
            assert(#ctx.sizes_bytes == n and #ctx.download_times_s == n)
            for i = 1, n do assert(ctx.throughputs_kbps[i] == 1000 * i) end
            if n == 0 then assert(ctx.last_level == nil) else assert(ctx.last_level == 1) end
            return 1
          end,
        }
        """

    @Test func historyGrowsIncrementallyAndFollowsTheContext() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("history.lua", Self.history)
        let video = try Fixture.video()
        var strategy = script.makeStrategy()
        try strategy.setUp(Fixture.info(video))
        var downloads: [DownloadRecord] = []
        for segment in 0..<4 {
            #expect(try strategy.chooseLevel(Fixture.context(video, segment: segment, downloads: downloads)) == 0)
            downloads.append(Fixture.download(segment: segment, level: 0, throughputKbps: Double(1000 * (segment + 1)), video: video))
        }
        #expect(try strategy.chooseLevel(Fixture.context(video, segment: 4, downloads: downloads)) == 0)
        #expect(try strategy.chooseLevel(Fixture.context(video, segment: 2, downloads: Array(downloads.prefix(2)))) == 0)
        #expect(try strategy.chooseLevel(Fixture.context(video, segment: 5, downloads: downloads + [
            Fixture.download(segment: 4, level: 0, throughputKbps: 5000, video: video),
        ])) == 0)
    }

    static let report = """
        local seen = 0
        return {
          choose = function(ctx)
            assert(seen == ctx.segment_index - 1)
            return 2
          end,
          on_download = function(report)
            seen = seen + 1
            assert(report.segment_index == seen and math.type(report.segment_index) == "integer")
            assert(report.level == 2 and math.type(report.level) == "integer")
            assert(report.size_bytes == 375000 + seen - 1)
            assert(math.abs(report.download_time_s - report.size_bytes * 8 / 2000 / 1000) < 1e-12)
            assert(report.throughput_kbps == 2000)
            assert(report.rebuffer_s == 0 and report.buffer_s == 4 and report.wait_s == 0)
          end,
        }
        """

    @Test func onDownloadReceivesTheReport() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("report.lua", Self.report)
        #expect(try Fixture.play(script) == Array(repeating: 1, count: 10))
    }

    static let session = """
        local M = { params = { horizon = 5, label = "x" } }
        local info
        function M.setup(session)
          assert(session.segment_count == 10 and math.type(session.segment_count) == "integer")
          assert(session.segment_duration_s == 4)
          assert(session.level_count == 6 and session.levels_kbps[2] == 750)
          assert(session.trace == "trace-a" and session.profile == "default")
          assert(session.seed == 77 and math.type(session.seed) == "integer")
          assert(session.max_buffer_s == 60)
          assert(session.params.horizon == 3 and session.params.label == "x")
          assert(session.params == M.params)
          info = session
        end
        function M.choose(ctx)
          assert(info ~= nil)
          return M.params.horizon
        end
        return M
        """

    @Test func setupReceivesTheSessionWithEffectiveParams() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("session.lua", Self.session)
        let script = try LuaStrategyLoader(overrides: ["session": ["horizon": "3"]]).load(path: path)
        #expect(try Fixture.play(script, seed: 77) == Array(repeating: 2, count: 10))
    }

    @Test func largeSeedsKeepTheirBitPattern() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("seed.lua", """
            return {
              setup = function(session) assert(session.seed == -1, tostring(session.seed)) end,
              choose = function() return 1 end,
            }
            """)
        #expect(try Fixture.play(script, seed: .max, segments: 1) == [0])
    }

    /// `ctx:quality(segment, level)` returns the manifest's VMAF and SSIM, 1-based, nil where
    /// the video has none.
    @Test func ctxQualityReadsPerSegmentScores() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("quality.lua", """
            return {
              choose = function(ctx)
                local vmaf, ssim = ctx:quality(2, 3)
                assert(vmaf == 69 and ssim == 0.92, tostring(vmaf) .. " " .. tostring(ssim))
                vmaf, ssim = ctx.quality(10, 6)
                assert(vmaf == 91 and math.abs(ssim - 0.95) < 1e-12)
                vmaf, ssim = ctx:quality(11, 1)
                assert(vmaf == nil and ssim == nil)
                vmaf, ssim = ctx:quality(1, 0)
                assert(vmaf == nil and ssim == nil)
                local best = 1
                for level = 1, ctx.level_count do
                  if ctx:quality(ctx.segment_index, level) <= 100 then best = level end
                end
                return best
              end,
            }
            """)
        let plain = try Fixture.video()
        let sizes = (0..<plain.segmentCount).map { segment in (0..<plain.levelCount).map { plain.sizeBytes(segment: segment, level: $0) } }
        let vmaf = (0..<plain.segmentCount).map { segment in (0..<plain.levelCount).map { 50 + 10 * Double($0) - Double(segment) } }
        let ssim = (0..<plain.segmentCount).map { _ in (0..<plain.levelCount).map { 0.9 + 0.01 * Double($0) } }
        let video = try Video(
            name: "quality", segmentDurationSeconds: 4, ladder: plain.ladder, sizesBytes: sizes, quality: [.vmaf: vmaf, .ssim: ssim]
        )
        var strategy = script.makeStrategy()
        #expect(try Fixture.play(&strategy, video: video, segments: 2) == [5, 5])

        let vmafOnly = try Video(name: "v", segmentDurationSeconds: 4, ladder: plain.ladder, sizesBytes: sizes, quality: [.vmaf: vmaf])
        let nilSSIM = try folder.load("nil.lua", """
            return { choose = function(ctx)
              local vmaf, ssim = ctx:quality(1, 1)
              assert(vmaf == 50 and ssim == nil)
              return 1
            end }
            """)
        var partial = nilSSIM.makeStrategy()
        #expect(try Fixture.play(&partial, video: vmafOnly, segments: 1) == [0])
        let none = try folder.load("none.lua", "return { choose = function(ctx) assert(select('#', ctx:quality(1, 1)) == 2 and ctx:quality(1, 1) == nil); return 1 end }\n")
        var bare = none.makeStrategy()
        #expect(try Fixture.play(&bare, video: plain, segments: 1) == [0])
    }
}
