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
}
