import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Hostile scripts: each must end with a clear error inside its limits, touch nothing outside
/// the engine, and leave the engine usable for the next session.
@Suite(.tags(.lua), .selectedByTags) struct LuaSandboxTests {
    /// Small limits so the bombs go off fast.
    static let limits = LuaLimits(instructionsPerCall: 2_000_000, secondsPerCall: 30, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)
    static let loader = LuaStrategyLoader(limits: limits)

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        /// The body of `choose(ctx)`, on line 3 of the script.
        let body: String
        /// What the one-line error must contain.
        let expected: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "io", body: "io.open(MARKER, 'w')", expected: ":3: attempt to index a nil value (global 'io')"),
        Case(name: "os", body: "os.execute('touch ' .. MARKER)", expected: ":3: attempt to index a nil value (global 'os')"),
        Case(name: "require", body: "require('os')", expected: ":3: module 'os' not found: no file "),
        Case(name: "require outside the folder", body: "require('../../etc/passwd')", expected: ":3: module name '../../etc/passwd' is not allowed"),
        Case(name: "dofile", body: "dofile(MARKER)", expected: ":3: attempt to call a nil value (global 'dofile')"),
        Case(name: "loadfile", body: "loadfile(MARKER)", expected: ":3: attempt to call a nil value (global 'loadfile')"),
        Case(name: "collectgarbage", body: "collectgarbage('stop')", expected: ":3: attempt to call a nil value (global 'collectgarbage')"),
        Case(name: "debug", body: "debug.sethook()", expected: ":3: attempt to index a nil value (global 'debug')"),
        Case(name: "coroutine", body: "coroutine.wrap(function() end)()", expected: ":3: attempt to index a nil value (global 'coroutine')"),
        Case(name: "string.dump", body: "string.dump(function() end)", expected: ":3: string.dump is disabled in the sandbox"),
        Case(name: "load(string.dump)", body: "load(string.dump(function() return 1 end))()", expected: ":3: string.dump is disabled in the sandbox"),
        Case(name: "binary literal", body: "assert(load('\\27Lua\\84\\0\\25\\147\\13\\10\\26\\10'))", expected: ":3: attempt to load a binary chunk (mode is 't')"),
        Case(name: "binary mode", body: "assert(load('\\27Lua\\84\\0', 'x', 'b'))", expected: ":3: attempt to load a binary chunk (mode is 't')"),
        Case(name: "load sees no io", body: "assert(load('return io')() ~= nil, 'no io here')", expected: ":3: no io here"),
        Case(name: "infinite loop", body: "while true do end", expected: ":3: choose exceeded the budget of 2000000 instructions per call"),
        Case(
            name: "loop in pcall", body: "for i = 1, 1e9 do pcall(function() while true do end end) end return 1",
            expected: ":3: choose exceeded the budget of 2000000 instructions per call"
        ),
        Case(
            name: "loop in error handler", body: "xpcall(function() error('x') end, function() while true do end end) return 1",
            expected: ":3: choose exceeded the budget of 2000000 instructions per call"
        ),
        Case(name: "table growth", body: "local t = {} for i = 1, 1e9 do t[i] = {i} end", expected: "choose exceeded the memory limit of 8 MiB per engine"),
        Case(name: "string doubling", body: "local s = 'x' for i = 1, 64 do s = s .. s end", expected: "choose exceeded the memory limit of 8 MiB per engine"),
        Case(name: "string.rep", body: "string.rep('x', 1e9)", expected: ":3: string.rep: result larger than the sandbox's cap of 1048576 bytes"),
        Case(name: "string.rep method", body: "('xy'):rep(1e6, ',')", expected: ":3: string.rep: result larger than the sandbox's cap of 1048576 bytes"),
        Case(
            name: "pattern bomb", body: "string.find(string.rep('a', 1e5), '.-.-.-.-.-.-b')",
            expected: ":3: string.find: patterns are disabled in the sandbox; pass true as 4th argument for a plain search"
        ),
        Case(name: "gsub", body: "('aaa'):gsub('a*', 'b')", expected: ":3: string.gsub is disabled in the sandbox (patterns are unbounded)"),
        Case(name: "match", body: "string.match('aaa', '(a*)*b')", expected: ":3: string.match is disabled in the sandbox (patterns are unbounded)"),
        Case(name: "gmatch", body: "for w in string.gmatch('a b', '%a+') do end", expected: ":3: string.gmatch is disabled in the sandbox (patterns are unbounded)"),
        Case(name: "__gc", body: "setmetatable({}, { __gc = function() while true do end end })", expected: ":3: __gc metamethods are not allowed in the sandbox"),
        Case(
            name: "__tostring error object", body: "error(setmetatable({}, { __tostring = function() while true do end end }))",
            expected: "choose: error object is a table value"
        ),
        Case(
            name: "__tostring loop", body: "return tostring(setmetatable({}, { __tostring = function() while true do end end }))",
            expected: ":3: choose exceeded the budget of 2000000 instructions per call"
        ),
        Case(name: "string metatable", body: "getmetatable('').__index = {}", expected: ":3: attempt to index a boolean value"),
        Case(name: "string library", body: "string.upper = function() return 'pwned' end", expected: ":3: cannot set field 'upper': library tables are read-only in the sandbox"),
        Case(name: "rawset on a library", body: "rawset(string, 'upper', nil)", expected: ":3: library tables are read-only in the sandbox"),
        Case(name: "library metatable", body: "setmetatable(table, {})", expected: ":3: cannot change a protected metatable"),
        Case(name: "table.move", body: "table.move({}, 1, 1 << 50, 1, {})", expected: ":3: choose exceeded the budget of 2000000 instructions per call"),
        Case(
            name: "table.insert with a huge length", body: "table.insert(setmetatable({}, { __len = function() return 1 << 50 end }), 1, 0)",
            expected: ":3: choose exceeded the budget of 2000000 instructions per call"
        ),
        Case(name: "unseeded randomseed", body: "math.randomseed()", expected: ":3: bad argument #1 to 'randomseed' (number expected, got no value)"),
        Case(name: "line break in the message", body: "error('one\\ntwo\\27[2J')", expected: ":3: one\\u{A}two\\u{1B}[2J"),
    ]

    @Test(arguments: cases)
    func hostileChooseEndsWithAClearError(_ hostile: Case) throws {
        let folder = try ScriptFolder()
        let marker = folder.path + "/marker"
        let path = try folder.write("hostile.lua", """
            local MARKER = \(Self.quoted(marker))
            return { choose = function(ctx)
              \(hostile.body)
            end }
            """)
        let message = Fixture.failure { _ = try Fixture.play(Self.loader.load(path: path), segments: 1) } ?? "no error"
        #expect(message.hasPrefix(path + (hostile.expected.hasPrefix(":") ? "" : ": ")), "\(message)")
        #expect(message.contains(hostile.expected), "\(message)")
        #expect(!message.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: marker))
        try Self.expectHealthyEngine(folder)
    }

    @Test func anInfiniteLoopAtTheTopLevelFailsTheLoad() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("spin.lua", "local x = 0\nwhile true do x = x + 1 end\n")
        #expect(Fixture.failure { _ = try Self.loader.load(path: path) } == "\(path):2: loading exceeded the budget of 2000000 instructions per call")
        try Self.expectHealthyEngine(folder)
    }

    @Test func aLoopThatOnlyStartsInASessionIsCaughtThere() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("later.lua", """
            local M = { choose = function() return 1 end }
            function M.setup(session)
              if session.seed == 5 then while true do end end
            end
            return M
            """, loader: Self.loader)
        #expect(Fixture.failure { _ = try Fixture.play(script, seed: 5) } == "\(script.path):3: starting the session exceeded the budget of 2000000 instructions per call")
        #expect(try Fixture.play(script, seed: 6).count == 10)
    }

    @Test func theTimeBackstopEndsWorkTheBudgetAllows() throws {
        let folder = try ScriptFolder()
        let limits = LuaLimits(instructionsPerCall: .max, secondsPerCall: 0.05, memoryBytesPerEngine: 8 << 20, stringRepBytes: 1 << 20)
        let script = try folder.load("slow.lua", "return { choose = function()\n  while true do end\nend }", loader: LuaStrategyLoader(limits: limits))
        #expect(Fixture.failure { _ = try Fixture.play(script) } == "\(script.path):2: choose exceeded the time limit of 0.05 s per call")
    }

    @Test func aMetatableOnCtxCannotInterceptTheRefresh() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("meta.lua", """
            return { choose = function(ctx)
              setmetatable(ctx, { __newindex = function() error("intercepted") end })
              return ctx.last_level or 1
            end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 3) == [0, 0, 0])
    }

    @Test func aMemoryCapTooSmallForLuaIsReported() throws {
        let folder = try ScriptFolder()
        let limits = LuaLimits(instructionsPerCall: 1000, secondsPerCall: 1, memoryBytesPerEngine: 1000, stringRepBytes: 10)
        let path = try folder.write("tiny.lua", "return { choose = function() return 1 end }")
        #expect(Fixture.failure { _ = try LuaStrategyLoader(limits: limits).load(path: path) } == "\(path): cannot open a Lua engine within a memory cap of 1000 bytes")
    }

    @Test func emptyRepetitionsReturnAtOnce() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("empty.lua", "return { choose = function() return #string.rep('', 1e15) + #('x'):rep(0) + 1 end }", loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [0])
    }

    @Test func loadSharesTheSessionEnvironment() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("loader.lua", """
            return { choose = function()
              load('shared = 2')()
              assert(shared == 2)
              assert(load('return string.upper("a")')() == 'A')
              assert(load('return x', 'chunk', 't', { x = 3 })() == 3)
              return shared
            end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [1])
    }

    @Test func libraryViewsStillIterate() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("iterate.lua", """
            return { choose = function()
              local names = {}
              for name in pairs(string) do names[#names + 1] = name end
              assert(#names > 10, #names)
              assert(getmetatable("") == false and getmetatable(string) == false)
              return 1
            end }
            """, loader: Self.loader)
        #expect(try Fixture.play(script, segments: 1) == [0])
    }

    /// A benign script in the same thread's engine still runs, with an intact string library.
    static func expectHealthyEngine(_ folder: ScriptFolder) throws {
        let script = try folder.load("benign.lua", """
            return { choose = function(ctx)
              assert(("abc"):upper() == "ABC" and string.upper("x") == "X")
              assert(getmetatable("") == false and io == nil)
              return ctx.level_count
            end }
            """, loader: loader)
        #expect(try Fixture.play(script, segments: 2) == [5, 5])
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
