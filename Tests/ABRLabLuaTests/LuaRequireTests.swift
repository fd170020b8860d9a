import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `require`: modules from the script's folder, run in the requiring session's environment.
@Suite(.tags(.lua), .selectedByTags) struct LuaRequireTests {
    static let limits = LuaLimits(instructionsPerCall: 2_000_000, secondsPerCall: 30, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)
    static let loader = LuaStrategyLoader(limits: limits)

    /// A strategy whose choose returns what `body` computes, with `require` at the top level.
    static func script(_ top: String, choose body: String = "return 1") -> String {
        "\(top)\nreturn { choose = function(ctx)\n  \(body)\nend }\n"
    }

    @Test func loadsAModuleFromTheScriptsFolderAndASubfolder() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try folder.write("levels.lua", "return { top = function(ctx) return ctx.level_count end }")
        try folder.write("lib/pick.lua", "local levels = require('levels')\nreturn { second = function() return 2 end, levels = levels }")
        let script = try folder.load("main.lua", Self.script(
            "local levels = require('levels')\nlocal pick = require('lib.pick')\nassert(rawequal(levels, pick.levels))",
            choose: "return ctx.segment_index == 1 and pick.second() or levels.top(ctx)"
        ), loader: Self.loader)
        #expect(try Fixture.play(script, segments: 3) == [1, 5, 5])
    }

    @Test func twoRequiresInASessionGiveTheSameValueAndSessionsGetTheirOwn() throws {
        let folder = try ScriptFolder()
        try folder.write("counter.lua", "local n = 0\ncalls = (calls or 0) + 1\nreturn { next = function() n = n + 1 return n end }")
        let script = try folder.load("main.lua", Self.script(
            "local a = require('counter')\nlocal b = require('counter')\nassert(rawequal(a, b))",
            choose: "assert(calls == 1, 'the module ran ' .. tostring(calls) .. ' times')\nreturn require('counter').next() == ctx.segment_index and 1 or 2"
        ), loader: Self.loader)
        // Each session counts from 1 again: the module's locals and the globals it sets are per session.
        #expect(try Fixture.play(script, seed: 1, segments: 4) == [0, 0, 0, 0])
        #expect(try Fixture.play(script, seed: 2, segments: 4) == [0, 0, 0, 0])
    }

    @Test func aModuleSharesTheSessionsGlobalsAndRandomGenerator() throws {
        let folder = try ScriptFolder()
        try folder.write("draw.lua", "shared = 'set by the module'\nreturn function() return math.random(1, 1000000) end")
        let script = try folder.load("main.lua", Self.script(
            "local draw = require('draw')\nassert(shared == 'set by the module')\nlocal first",
            choose: "first = first or draw()\nreturn first % ctx.level_count + 1"
        ), loader: Self.loader)
        #expect(try Fixture.play(script, seed: 7, segments: 2) == Fixture.play(script, seed: 7, segments: 2))
    }

    @Test func aModuleReturningNothingGivesTrueAndItsNameIsPassed() throws {
        let folder = try ScriptFolder()
        try folder.write("quiet.lua", "seen_name = select(2, ...)")
        let script = try folder.load("main.lua", Self.script(
            "assert(require('quiet') == true)\nassert(seen_name == 'quiet', tostring(seen_name))"
        ), loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [0])
    }

    struct BadName: Sendable, CustomStringConvertible {
        let name: String
        var description: String { name }
    }

    @Test(arguments: ["../escape", "/etc/passwd", "a..b", ".hidden", "trailing.", "lib/x", "x.lua/", "", "sp ace", "x-y", String(repeating: "a", count: 49)].map(BadName.init))
    func namesThatCouldLeaveTheFolderAreRejected(_ bad: BadName) throws {
        let folder = try ScriptFolder()
        let path = try folder.write("main.lua", "local ok = 1\nrequire(\"\(bad.name)\")\nreturn { choose = function() return 1 end }\n")
        let message = Fixture.failure { _ = try Self.loader.load(path: path) } ?? "no error"
        #expect(message.hasPrefix("\(path):2: module name '"), "\(message)")
        #expect(message.contains("is not allowed"), "\(message)")
    }

    @Test func aNonStringNameIsAnArgumentError() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("main.lua", "require({})\nreturn { choose = function() return 1 end }\n")
        #expect(Fixture.failure { _ = try Self.loader.load(path: path) } == "\(path):1: bad argument #1 to 'require' (string expected, got table)")
    }

    @Test func aMissingModuleNamesTheFileItLookedFor() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("main.lua", "\nlocal m = require('lib.absent')\nreturn { choose = function() return 1 end }\n")
        #expect(Fixture.failure { _ = try Self.loader.load(path: path) } == "\(path):2: module 'lib.absent' not found: no file \(folder.path)/lib/absent.lua")
        try FileManager.default.createDirectory(atPath: folder.path + "/dir.lua", withIntermediateDirectories: true)
        let dir = try folder.write("dir_user.lua", "require('dir')\nreturn { choose = function() return 1 end }\n")
        #expect(Fixture.failure { _ = try Self.loader.load(path: dir) } == "\(dir):1: module 'dir': \(folder.path)/dir.lua is a folder, not a file")
    }

    @Test func errorsInsideAModuleNameTheModulesFileAndLine() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try folder.write("lib/syntax.lua", "local M = {}\nfunction M.f(\n  return 1\nend\nreturn M\n")
        let syntax = try folder.write("a.lua", Self.script("require('lib.syntax')"))
        #expect(Fixture.failure { _ = try Self.loader.load(path: syntax) } == "\(folder.path)/lib/syntax.lua:3: <name> or '...' expected near 'return'")

        try folder.write("lib/top.lua", "\n\nerror('top level fails')\n")
        let top = try folder.write("b.lua", Self.script("require('lib.top')"))
        #expect(Fixture.failure { _ = try Self.loader.load(path: top) } == "\(folder.path)/lib/top.lua:3: top level fails")

        try folder.write("lib/late.lua", "return { f = function(x)\n  return x.missing.field\nend }\n")
        let late = try folder.load("c.lua", Self.script("local late = require('lib.late')", choose: "return late.f({})"), loader: Self.loader)
        #expect(Fixture.failure { _ = try Fixture.play(late, segments: 1) } == "\(folder.path)/lib/late.lua:2: attempt to index a nil value (field 'missing')")
    }

    @Test func aFailedRequireCanBeRetriedAndFailsTheSameWay() throws {
        let folder = try ScriptFolder()
        try folder.write("flaky.lua", "error('always')")
        let script = try folder.load("main.lua", Self.script("""
            local ok1, e1 = pcall(require, 'flaky')
            local ok2, e2 = pcall(require, 'flaky')
            assert(not ok1 and not ok2 and e1 == e2, tostring(e2))
            """), loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [0])
    }

    @Test func cyclicRequiresAreAnErrorNotARecursion() throws {
        let folder = try ScriptFolder()
        try folder.write("ping.lua", "return { pong = require('pong') }")
        try folder.write("pong.lua", "\nreturn { ping = require('ping') }")
        let cycle = try folder.write("main.lua", Self.script("require('ping')"))
        #expect(Fixture.failure { _ = try Self.loader.load(path: cycle) } == "\(folder.path)/pong.lua:2: module 'ping' is required while it loads (a cyclic require)")
        let selfish = try folder.write("selfish.lua", Self.script("require('selfish')"))
        #expect(Fixture.failure { _ = try Self.loader.load(path: selfish) } == "\(folder.path)/selfish.lua:1: module 'selfish' is required while it loads (a cyclic require)")
    }

    @Test func aModuleCountsAgainstTheRequiringCallsBudgetAndMemory() throws {
        let folder = try ScriptFolder()
        try folder.write("spin.lua", "local x = 0\nwhile true do x = x + 1 end\n")
        let spin = try folder.write("main.lua", Self.script("require('spin')"))
        #expect(Fixture.failure { _ = try Self.loader.load(path: spin) } == "\(folder.path)/spin.lua:2: loading exceeded the budget of 2000000 instructions per call")
        try folder.write("hog.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = {i} end\n")
        let hog = try folder.load("later.lua", Self.script("", choose: "require('hog')"), loader: Self.loader)
        #expect(Fixture.failure { _ = try Fixture.play(hog, segments: 1) } == "\(hog.path): choose exceeded the memory limit of 8 MiB per engine")
        // The engine is usable afterwards.
        let fine = try folder.load("fine.lua", Self.script(""), loader: Self.loader)
        #expect(try Fixture.play(fine, segments: 2) == [0, 0])
    }

    @Test func aModulesTextIsReadOncePerScript() throws {
        let folder = try ScriptFolder()
        try folder.write("level.lua", "return 2")
        let script = try folder.load("main.lua", Self.script("local level = require('level')", choose: "return level"), loader: Self.loader)
        try folder.write("level.lua", "return 3")
        #expect(try Fixture.play(script, segments: 2) == [1, 1])
    }

    @Test func aStrategyCanBuildOnAnotherStrategysTable() throws {
        let folder = try ScriptFolder()
        try folder.write("base.lua", "local M = { params = { level = 2 } }\nfunction M.choose(ctx) return M.params.level end\nreturn M")
        let script = try folder.load("derived.lua", """
            local base = require('base')
            local M = { params = { bonus = 1 } }
            function M.choose(ctx) return base.choose(ctx) + M.params.bonus end
            return M
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 2) == [2, 2])
    }

    @Test func scanningAFolderSkipsModulesInSubfoldersAndUnderscoreFiles() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try folder.write("lib/helper.lua", "return { f = function() return 1 end }")
        try folder.write("_private.lua", "return 42")
        try folder.write("user.lua", Self.script("local h = require('lib.helper')\nlocal p = require('_private')", choose: "return h.f()"))
        let scripts = try Self.loader.discover(folder: folder.path)
        #expect(scripts.map(\.id) == ["user"])
        // A module that is not a strategy at the top of the folder is reported, not skipped.
        try folder.write("helper.lua", "return { f = function() return 1 end }")
        #expect(Fixture.failure { _ = try Self.loader.discover(folder: folder.path) } == "\(folder.path)/helper.lua: the script defines no choose function")
    }
}
