import ABRLab
import ABRLabLua
import Testing
import TestSupport

/// The question form written in Lua must answer exactly like the native Conservative strategy.
@Suite(.tags(.lua), .selectedByTags) struct LuaQuestionFormTests {
    static let conservative = """
        local M = {
          name = "Conservative (Lua)",
          description = "The seed default, in Lua",
          params = { buffer_health_threshold = 0.7, rebuffering_threshold = 0.05 },
        }
        local rank = { offline = 0, poor = 1, fair = 2, good = 3, excellent = 4 }

        function M.initial_bitrate(quality, levels)
          local n = #levels
          local index = n - 1
          if quality == "offline" or quality == "poor" then index = 0
          elseif quality == "fair" then index = n // 3
          elseif quality == "good" then index = n * 2 // 3 end
          return levels[index + 1]
        end

        local function at_or_above(bitrate, levels)
          for i, level in ipairs(levels) do
            if level >= bitrate then return i end
          end
        end

        function M.should_upgrade(current, health, quality, levels)
          if rank[quality] < rank.good or health < M.params.buffer_health_threshold then return nil end
          local i = at_or_above(current, levels)
          if i == nil or i == #levels then return nil end
          return levels[i + 1]
        end

        function M.should_downgrade(current, ratio, quality, levels)
          local i = at_or_above(current, levels)
          if i == nil or i == 1 then return nil end
          if ratio < M.params.rebuffering_threshold and rank[quality] > rank.poor then return nil end
          return levels[i - 1]
        end

        return M
        """

    @Test func answersLikeTheNativeConservativeStrategy() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("conservative_lua.lua", Self.conservative)
        #expect(script.form == .questions)
        let video = try Fixture.video()
        let lua = LuaBitrateStrategy(script: script)
        try lua.setUp(Fixture.info(video))
        let native = ConservativeBitrateStrategy()
        let ladder = video.ladder
        for quality in NetworkQuality.allCases {
            #expect(lua.initialBitrate(for: quality, availableLevels: ladder) == native.initialBitrate(for: quality, availableLevels: ladder))
            for current in ladder.map(\.bitrate) {
                for health in [0.0, 0.69, 0.7, 1.5] {
                    #expect(lua.shouldUpgrade(currentBitrate: current, bufferHealth: health, networkQuality: quality, availableLevels: ladder)
                        == native.shouldUpgrade(currentBitrate: current, bufferHealth: health, networkQuality: quality, availableLevels: ladder))
                }
                for ratio in [0.0, 0.049, 0.05, 0.5] {
                    #expect(lua.shouldDowngrade(currentBitrate: current, rebufferingRatio: ratio, networkQuality: quality, availableLevels: ladder)
                        == native.shouldDowngrade(currentBitrate: current, rebufferingRatio: ratio, networkQuality: quality, availableLevels: ladder))
                }
            }
        }
        try lua.throwIfFailed()
    }

    @Test func playsSessionsLikeTheNativeController() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("conservative_lua.lua", Self.conservative)
        let video = try Fixture.video()
        for throughput in [400.0, 1500, 2500, 9000] {
            var lua = script.makeStrategy()
            var native = BitrateStrategySession(strategy: ConservativeBitrateStrategy())
            let luaLevels = try Fixture.play(&lua, video: video, throughputKbps: throughput)
            let nativeLevels = try Fixture.play(&native, video: video, throughputKbps: throughput)
            #expect(luaLevels == nativeLevels)
        }
        let descriptor = script.descriptor()
        #expect(descriptor.name == "Conservative (Lua)")
        var fromDescriptor = try descriptor.makeStrategy()
        #expect(try Fixture.play(&fromDescriptor, video: video).count == 10)
    }

    @Test func aBitrateOffTheLadderIsAClearError() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("kbps.lua", """
            return {
              initial_bitrate = function(quality, levels) return levels[1] // 1000 end,
              should_upgrade = function() return nil end,
              should_downgrade = function() return nil end,
            }
            """)
        #expect(Fixture.failure { _ = try Fixture.play(script) }
            == "\(script.path): initial_bitrate returned 300; expected a ladder bitrate in bits/s (300000, 750000, 1200000, 1850000, 2850000, 4300000)")
        let upgrade = try folder.load("up.lua", """
            return {
              initial_bitrate = function(quality, levels) return levels[1] end,
              should_upgrade = function(current, health, quality, levels) return "up" end,
              should_downgrade = function() return nil end,
            }
            """)
        #expect(Fixture.failure { _ = try Fixture.play(upgrade) }?.hasPrefix("\(upgrade.path): should_upgrade returned a string value; expected nil or a ladder bitrate") == true)
    }

    @Test func runtimeErrorsSurfaceFromTheDecision() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("fails.lua", """
            return {
              initial_bitrate = function(quality, levels) return levels[1] end,
              should_upgrade = function(current, health) return current + nil end,
              should_downgrade = function() return nil end,
            }
            """)
        #expect(Fixture.failure { _ = try Fixture.play(script) } == "\(script.path):3: attempt to perform arithmetic on a nil value")
    }

    @Test func aPartialSeedProtocolIsRejected() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("partial.lua", "return { initial_bitrate = function() return 1 end, should_upgrade = function() end }")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: path) }
            == "\(path): the question form needs initial_bitrate, should_upgrade and should_downgrade; should_downgrade is missing")
    }
}
