import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The request-level hooks from Lua: delays, abandonment checks, full-buffer waits and what the
/// report says, and the errors a misbehaving hook gets.
@Suite(.tags(.lua), .selectedByTags) struct RequestHookTests {
    /// A slow, steady link (600 kbps) and a 4-level CBR video of 4 s segments.
    static func inputs() throws -> (NetworkTrace, Video) {
        let trace = try NetworkTrace(name: "slow", periodEndSeconds: [30, 60], bandwidthBitsPerSecond: [600_000, 600_000], latencySeconds: [0.05, 0.05])
        let ladder = [300_000, 750_000, 1_200_000, 3_000_000].map { BitrateLevel(bitrate: $0, label: "\($0 / 1000)k") }
        let video = try Video(name: "cbr", segmentDurationSeconds: 4, ladder: ladder, segmentCount: 12)
        return (trace, video)
    }

    static func play(_ script: LuaScript, profile: EmulationProfile = .sabre) throws -> SessionResult {
        let (trace, video) = try inputs()
        var strategy = LuaStrategy(script: script)
        return try SessionEmulator(profile: profile).run(&strategy, strategyID: script.id, trace: trace, video: video)
    }

    static func failure(_ script: LuaScript) -> String? {
        do {
            _ = try play(script)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func abandoningWastesTheRequestAndAsksAgain() throws {
        let folder = try ScriptFolder()
        // Asks for the top level while it has not abandoned this segment yet, and gives up on it
        // after a second of download; the report tells it what happened.
        let script = try folder.load("greedy.lua", """
            local abandoned, reports = {}, {}
            local M = {}
            function M.choose(ctx)
              if ctx.segment_index > 1 and not abandoned[ctx.segment_index] then return 4 end
              return 1
            end
            function M.check_abandon(p)
              assert(p.size_bytes > p.received_bytes and p.ttfb_s > 0 and p.elapsed_s >= p.ttfb_s)
              if p.level > 1 and p.elapsed_s > 1 then abandoned[p.segment_index] = true; return 1 end
            end
            function M.on_download(r)
              if r.abandoned then
                assert(r.abandoned_to_level == 1 and r.received_bytes < r.size_bytes and not r.replacement)
              else
                assert(r.abandoned_to_level == nil and r.received_bytes == r.size_bytes)
              end
            end
            return M
            """)
        let result = try Self.play(script)
        #expect(result.segments.count == 12)
        #expect(result.segments.allSatisfy { $0.level == 0 })
        #expect(result.segments[0].requests == 1)
        #expect(result.segments.dropFirst().allSatisfy { $0.requests == 2 && $0.wastedBytes > 0 })
    }

    @Test func aDelayPassesTimeBeforeTheRequest() throws {
        let folder = try ScriptFolder()
        let prompt = try folder.load("prompt.lua", "return { choose = function(ctx) return 1 end }")
        let patient = try folder.load("patient.lua", "return { choose = function(ctx) return 1, 0.5 end }")
        let fast = try Self.play(prompt, profile: .default)
        let slow = try Self.play(patient, profile: .default)
        #expect(slow.segments[3].downloadStartSeconds > fast.segments[3].downloadStartSeconds + 1.4)
    }

    @Test func fullBufferWaitsAreTold() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("waits.lua", """
            local waited = 0
            return {
              choose = function(ctx) return 1 end,
              on_wait = function(w) assert(w.wait_s > 0 and w.buffer_s > 0); waited = waited + w.wait_s end,
              on_download = function(r) if r.segment_index == 12 then assert(waited > 0, "never waited") end end,
            }
            """)
        // 300 kbps segments over a 600 kbps link fill the 25 s buffer, so the player waits.
        let result = try Self.play(script)
        #expect(result.segments.reduce(0) { $0 + $1.waitSeconds } > 0)
    }

    @Test(arguments: [
        ("return 4", "check_abandon returned 4; expected nil or a level below 4"),
        ("return 0/0", "returned NaN; expected nil or a level below 4"),
        ("return 'low'", "check_abandon returned a string value; expected nil or a level below 4"),
        ("return 2.5", "check_abandon returned 2.5; expected nil or a level below 4"),
    ])
    func aBadAbandonmentAnswerEndsTheSessionNamingTheLine(body: String, message: String) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("bad.lua", "local M = {}\nfunction M.choose(ctx) return ctx.segment_index > 1 and 4 or 1 end\nfunction M.check_abandon(p)\n  \(body)\nend\nreturn M\n")
        let failure = Self.failure(script) ?? "no failure"
        #expect(failure.hasPrefix("\(script.path):3: check_abandon returned ") && failure.contains(message), "\(failure)")
    }

    /// Asks once per download never to be checked again, and fails a download checked twice.
    static let oncePerDownload = """
        local checks = {}
        local M = {}
        function M.choose(ctx) return ctx.segment_index > 1 and 4 or 1 end
        function M.check_abandon(p)
          checks[p.segment_index] = (checks[p.segment_index] or 0) + 1
          return nil, { elapsed_s = math.huge }
        end
        function M.on_download(r)
          if r.segment_index > 1 then assert(checks[r.segment_index] == 1, "checked " .. checks[r.segment_index] .. " times") end
        end
        return M
        """

    @Test func aRecheckSkipsTheChecksBeforeIt() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("once.lua", Self.oncePerDownload)
        let result = try Self.play(script)
        #expect(result.segments.dropFirst().allSatisfy { $0.level == 3 && $0.requests == 1 })
        var everyStep = EmulationProfile.sabre
        everyStep.mechanics = .segmentBuffer(SegmentBufferSettings(honoursRechecks: false))
        #expect(throws: (any Error).self) { try Self.play(script, profile: everyStep) }
    }

    @Test(arguments: [
        ("return nil, 5", "check_abandon returned 5 as its second result; expected nil or a recheck table"),
        ("return false, 'soon'", "check_abandon returned a string value as its second result; expected nil or a recheck table"),
        ("return nil, { elapsed = 1 }", "check_abandon returned a recheck with field 'elapsed'; expected elapsed_s or projected_s"),
        ("return nil, { 2 }", "check_abandon returned a recheck with key 1; expected elapsed_s or projected_s"),
        ("return nil, { elapsed_s = 0/0 }", "elapsed_s = NaN; expected a number of seconds"),
        ("return nil, { projected_s = '3' }", "check_abandon returned a recheck with projected_s = a string value; expected a number of seconds"),
    ])
    func aBadRecheckEndsTheSessionNamingTheLine(body: String, message: String) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("recheck.lua", "local M = {}\nfunction M.choose(ctx) return ctx.segment_index > 1 and 4 or 1 end\nfunction M.check_abandon(p)\n  \(body)\nend\nreturn M\n")
        let failure = Self.failure(script) ?? "no failure"
        #expect(failure.hasPrefix("\(script.path):3: check_abandon returned ") && failure.contains(message), "\(failure)")
    }

    /// Found by the lua-sandbox fuzzer: a script that abandons every request is asked for the same
    /// segment again and again. The 1000th abandonment of one segment ends the session with one
    /// line naming where check_abandon is defined — long before the engine's memory cap or the
    /// session's time limit, which it used to run into.
    @Test func abandoningEveryRequestEndsAtTheAbandonmentLimit() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("restless.lua", """
            return {
              choose = function(ctx) return 1 + ctx.segment_index % ctx.level_count end,
              check_abandon = function(progress) return progress.level - 1 end,
            }
            """)
        let expected = EmulationError.abandonmentLimit(check: "\(script.path):3", segment: 1, trace: "slow")
        #expect(throws: expected) { try Self.play(script, profile: .sabre) }
        #expect(expected.description == "\(script.path):3: abandoned segment 2 1000 times (the limit per segment) on slow")
    }

    /// A check defined in a module is named by the module's file and line.
    @Test func theLimitNamesAModulesCheck() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try folder.write("lib/giveup.lua", "local M = {}\n\nfunction M.check(progress)\n  return 1\nend\nreturn M\n")
        let script = try folder.load("borrowed.lua", """
            local giveup = require("lib.giveup")
            return { choose = function(ctx) return 2 end, check_abandon = giveup.check }
            """)
        #expect(throws: EmulationError.abandonmentLimit(check: folder.path + "/lib/giveup.lua:3", segment: 1, trace: "slow")) {
            try Self.play(script, profile: .sabre)
        }
    }

    @Test func anAbandonmentCheckThatRaisesNamesItsLineAndSegment() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("raise.lua", "local M = {}\nfunction M.choose(ctx) return ctx.segment_index > 1 and 4 or 1 end\nfunction M.check_abandon(p)\n  error('no')\nend\nreturn M\n")
        #expect(Self.failure(script) == "\(script.path):4: no (segment 2 of slow)")
    }

    @Test func aBadDelayIsAnError() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("delay.lua", "return { choose = function(ctx) return 1, -1 end }")
        #expect(Self.failure(script)?.contains("choose returned a delay of -1; delays are nil or 0…86400 s (the session limit)") == true)
    }

    @Test func readingAMisspeltFieldFailsAtItsLine() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("typo.lua", "return { choose = function(ctx)\n  return ctx.bufer_s > 1 and 2 or 1\nend }\n")
        #expect(Self.failure(script) == "\(script.path):2: ctx has no field 'bufer_s' (segment 1 of slow)")
    }

    @Test(arguments: SabreReference.algorithms)
    func sabreScriptsConformOnEveryProfile(algorithm: String) throws {
        for profile in [EmulationProfile.default, .sabre] {
            var conformance = try StrategyConformance()
            conformance.emulator = SessionEmulator(profile: profile)
            let report = conformance.check(try SabreReference.script(algorithm).descriptor())
            #expect(report.passed, "\(profile.name): \(report.findings)")
        }
    }
}
