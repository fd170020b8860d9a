import ABRLab
import ABRLabLua
import Testing
import TestSupport

/// `check(video)`: asked once before any session whether a script can play the run's video.
@Suite(.tags(.lua), .selectedByTags) struct LuaScriptFitTests {
    static func setting(live: Bool = false) throws -> RunSetting {
        let video = try Fixture.video()
        return RunSetting(
            video: video, segmentCount: 7, profileName: live ? "live" : "default", maxBufferSeconds: 60,
            live: live ? LiveSettings() : nil
        )
    }

    @Test(arguments: [
        ("", VideoFit.fits),
        ("check = function(video) end,", .fits),
        ("check = function(video) return true end,", .fits),
        ("check = function(video) return 'six levels are too many' end,", .unfit(reason: "six levels are too many")),
        // What it sees: the ladder, the counts, the profile and the effective params, no trace.
        ("""
         params = { most = 5 },
         check = function(video)
           return string.format('%d levels %g..%g kbps, %d segments of %g s, %s, buffer %g, live %s, most %d',
             video.level_count, video.levels_kbps[1], video.levels_kbps[#video.levels_kbps], video.segment_count,
             video.segment_duration_s, video.profile, video.max_buffer_s, tostring(video.live), video.params.most)
         end,
         """, .unfit(reason: "6 levels 300..4300 kbps, 7 segments of 4 s, default, buffer 60, live false, most 5")),
    ])
    func answersWithItsCheck(fields: String, expected: VideoFit) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("s.lua", "return { \(fields) choose = function(ctx) return 1 end }\n")
        #expect(try script.fit(Self.setting()) == expected)
        // A session-form strategy and the descriptor ask the same.
        #expect(try script.descriptor().fit(Self.setting()) == expected)
    }

    @Test func parametersSetFromTheCommandLineReachTheCheck() throws {
        let folder = try ScriptFolder()
        let text = "return { params = { most = 5 }, check = function(v) if v.level_count > v.params.most then return 'too many' end end, "
            + "choose = function(ctx) return 1 end }\n"
        let script = try folder.load("s.lua", text)
        #expect(try script.fit(Self.setting()) == .unfit(reason: "too many"))
        #expect(try script.overriding(["most": "6"]).fit(Self.setting()) == .fits)
    }

    @Test func liveFieldsAreThereOnLive() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("s.lua", """
            return { check = function(v) return string.format('%s %g', tostring(v.live), v.target_latency_s) end,
              choose = function(ctx) return 1 end }
            """)
        guard case .unfit(let reason) = try script.fit(Self.setting(live: true)) else {
            Issue.record("the check answered nothing")
            return
        }
        #expect(reason.hasPrefix("true "))
    }

    @Test func aSeedProtocolScriptIsAskedToo() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("seed.lua", """
            return {
              check = function(video) return "no" end,
              initial_bitrate = function(q, levels) return levels[1] end,
              should_upgrade = function() return nil end,
              should_downgrade = function() return nil end,
            }
            """)
        #expect(try script.descriptor().fit(Self.setting()) == .unfit(reason: "no"))
    }

    @Test(arguments: [
        ("check = function(video) error('boom') end,", "s.lua:1: boom"),
        ("check = function(video) return video.trace end,", "s.lua:1: video has no field 'trace'"),
        ("check = function(video) return {} end,", "s.lua: check returned"),
        ("check = 3,", "s.lua: check must be a function, not a number value"),
    ])
    func aBrokenCheckIsAnErrorNamingTheScript(fields: String, message: String) throws {
        let folder = try ScriptFolder()
        do {
            let script = try folder.load("s.lua", "return { \(fields) choose = function(ctx) return 1 end }\n")
            _ = try script.fit(Self.setting())
            Issue.record("no error")
        } catch let error as InputError {
            #expect(error.description.hasPrefix(folder.path + "/" + message), "\(error.description)")
        }
    }
}
