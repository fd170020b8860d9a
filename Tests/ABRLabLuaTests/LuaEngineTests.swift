@testable import ABRLabLua
import Testing
import TestSupport

@Suite(.tags(.lua), .selectedByTags) struct LuaEngineTests {
    @Test func opensEvaluatesAndCloses() throws {
        let engine = try LuaEngine()
        #expect(try engine.evaluateNumber("return 1 + 1") == 2)
    }

    @Test func reportsSyntaxErrorsWithChunkAndLine() throws {
        let engine = try LuaEngine()
        #expect(throws: LuaError.self) { try engine.evaluateNumber("return 1 +", sourceName: "=t.lua") }
        do {
            _ = try engine.evaluateNumber("\nerror('boom')", sourceName: "=t.lua")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.message == "t.lua:2: boom")
        }
    }

    @Test func evaluatesInTheSandboxUnderTheLimits() throws {
        let engine = try LuaEngine(limits: LuaLimits(instructionsPerCall: 2_000_000, secondsPerCall: 10, memoryBytesPerEngine: 4 << 20, stringRepBytes: 1024))
        #expect(try engine.evaluateNumber("return (io == nil and os == nil and debug == nil) and 1 or 0") == 1)
        #expect(throws: LuaError(kind: .limit, message: "loop.lua:1: instruction budget exceeded")) {
            try engine.evaluateNumber("while true do end", sourceName: "=loop.lua")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("local t = {} for i = 1, 1e8 do t[i] = i end")
        }
        #expect(try engine.evaluateNumber("return 40 + 2") == 42)
        #expect(engine.memoryBytes > 0)
    }

    /// Allocation spends the budget (64 bytes an instruction), and a C call allocates without VM
    /// instructions. The budget used to be checked only every 1000 instructions, so a loop of
    /// 1 MiB string.rep calls allocated some hundred MiB past it: the lua-sandbox fuzzer found
    /// 2 s spent in one call. It now stops right after the allocation that spends it: here
    /// about 30 of the strings, where 1000 instructions' worth would not fit in the 48 MiB cap.
    @Test func allocationStopsACallAsSoonAsItSpendsTheBudget() throws {
        let engine = try LuaEngine(limits: LuaLimits(instructionsPerCall: 1_000_000, secondsPerCall: 10, memoryBytesPerEngine: 48 << 20, stringRepBytes: 1 << 20))
        #expect(throws: LuaError(kind: .limit, message: "alloc.lua:1: instruction budget exceeded")) {
            try engine.evaluateNumber("local kept = {} for i = 1, 1000 do kept[i] = string.rep('x', 1 << 20) end return #kept", sourceName: "=alloc.lua")
        }
    }

    /// A thread's engine keeps every distinct script it has compiled. Were they counted against
    /// its cap, a session's result would depend on which scripts ran before it on the same
    /// thread: the lua-sandbox fuzzer's reference strategy ran out of memory after some thousand
    /// generated scripts. Here 150 scripts holding 16 kB each (2.4 MB kept) run first, then one
    /// that holds 2.5 MB under a 4 MiB cap.
    @Test func scriptsCompiledBeforeOnTheThreadLeaveASessionTheWholeCap() throws {
        let loader = LuaStrategyLoader(limits: LuaLimits(
            instructionsPerCall: 10_000_000, secondsPerCall: 10, memoryBytesPerEngine: 4 << 20, stringRepBytes: 1 << 20
        ))
        let folder = try ScriptFolder()
        let hungry = try folder.load("hungry.lua", """
            local M = {}
            local kept
            function M.setup(session)
              kept = {}
              for i = 1, 2500 do kept[i] = ("x"):rep(1000) .. i end
            end
            function M.choose(ctx) return #kept % ctx.level_count + 1 end
            return M
            """, loader: loader)
        let alone = try Fixture.play(hungry)
        let blob = String(repeating: "y", count: 16_000)
        for index in 0..<150 {
            let filler = try folder.load("filler\(index).lua", """
                local blob = "\(blob)\(index)"
                return { choose = function(ctx) return #blob > 0 and 1 or 2 end }
                """, loader: loader)
            _ = try Fixture.play(filler, segments: 1)
        }
        #expect(try Fixture.play(hungry) == alone)
    }

    /// Past its bound the engine drops the compiled scripts it kept and compiles them again
    /// when they come back; sessions play as before.
    @Test func keptScriptsAreDroppedPastTheirBound() throws {
        let limits = LuaLimits(instructionsPerCall: 10_000_000, secondsPerCall: 10, memoryBytesPerEngine: 4 << 20, stringRepBytes: 1 << 20)
        let loader = LuaStrategyLoader(limits: limits)
        let engine = try LuaEngineCache.current.engine(limits: limits, verbose: false)
        engine.compiledCacheBytes = 1 << 20
        defer { engine.compiledCacheBytes = limits.memoryBytesPerEngine }
        let folder = try ScriptFolder()
        let blob = String(repeating: "z", count: 16_000)
        let fillers = try (0..<150).map { index in
            try folder.load("kept\(index).lua", """
                local blob = "\(blob)\(index)"
                return { choose = function(ctx) return #blob % ctx.level_count + 1 end }
                """, loader: loader)
        }
        let first = try fillers.map { try Fixture.play($0, segments: 3) }
        #expect(engine.cachedScriptBytes <= (1 << 20) + 64_000)
        #expect(engine.compiledScripts.count < fillers.count)
        #expect(try fillers.map { try Fixture.play($0, segments: 3) } == first)
    }
}
