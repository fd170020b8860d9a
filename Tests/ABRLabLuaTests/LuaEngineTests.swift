import ABRLabLua
import Testing

@Suite struct LuaEngineTests {
    @Test func opensEvaluatesAndCloses() throws {
        let engine = try LuaEngine()
        #expect(try engine.evaluateNumber("return 1 + 1") == 2)
    }

    @Test func reportsSyntaxErrorsWithChunkAndLine() throws {
        let engine = try LuaEngine()
        #expect(throws: LuaError.self) { try engine.evaluateNumber("return 1 +", chunkName: "=t.lua") }
        do {
            _ = try engine.evaluateNumber("\nerror('boom')", chunkName: "=t.lua")
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
            try engine.evaluateNumber("while true do end", chunkName: "=loop.lua")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("local t = {} for i = 1, 1e8 do t[i] = i end")
        }
        #expect(try engine.evaluateNumber("return 40 + 2") == 42)
        #expect(engine.memoryBytes > 0)
    }
}
