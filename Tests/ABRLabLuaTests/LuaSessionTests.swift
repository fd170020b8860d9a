import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

@Suite(.tags(.lua), .selectedByTags) struct LuaSessionTests {
    static let counter = """
        local calls = 0
        return {
          choose = function(ctx)
            calls = calls + 1
            count = (count or 0) + 1
            assert(calls == count, "upvalue and global disagree")
            return math.min(calls, ctx.level_count)
          end,
        }
        """

    @Test func everySessionStartsFromAFreshState() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("counter.lua", Self.counter)
        let expected = [0, 1, 2, 3, 4, 5, 5, 5, 5, 5]
        #expect(try Fixture.play(script) == expected)
        #expect(try Fixture.play(script) == expected)
    }

    @Test func interleavedSessionsOnOneThreadKeepTheirOwnState() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("counter.lua", Self.counter)
        let video = try Fixture.video()
        var first = script.makeStrategy()
        var second = script.makeStrategy()
        try first.setUp(Fixture.info(video))
        try second.setUp(Fixture.info(video))
        let context = Fixture.context(video, segment: 0, downloads: [])
        #expect(try first.chooseLevel(context) == 0)
        #expect(try first.chooseLevel(context) == 1)
        #expect(try second.chooseLevel(context) == 0)
        #expect(try first.chooseLevel(context) == 2)
        try second.setUp(Fixture.info(video))
        #expect(try second.chooseLevel(context) == 0)
    }

    static let random = """
        local first = math.random(1, 1000)
        return {
          setup = function(session) assert(math.type(first) == "integer") end,
          choose = function(ctx) return math.random(ctx.level_count) end,
        }
        """

    @Test func sameSeedGivesTheSameRandomSequence() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("dice.lua", Self.random)
        let first = try Fixture.play(script, seed: 42)
        #expect(try Fixture.play(script, seed: 42) == first)
        #expect(try Fixture.play(script, seed: 43) != first)
        #expect(Set(first).count > 1)
    }

    @Test func resultsDoNotDependOnTheWorkerThread() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("dice.lua", Self.random + "\n-- \(#function)")
        let seeds: [UInt64] = Array(1...16)
        let serial = try seeds.map { try Fixture.play(script, seed: $0) }
        let results = Results<[Int]>(count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            results.store(index, Result { try Fixture.play(script, seed: seeds[index]) })
        }
        #expect(try results.values() == serial)
    }

    @Test func aSessionRefusesAnotherThread() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("fixed.lua", "return { choose = function() return 1 end }")
        let video = try Fixture.video()
        var strategy = script.makeStrategy()
        try strategy.setUp(Fixture.info(video))
        let context = Fixture.context(video, segment: 0, downloads: [])
        let results = Results<Int>(count: 1)
        let strategyBox = StrategyBox(strategy)
        let thread = Thread {
            results.store(0, Result { try strategyBox.choose(context) })
        }
        thread.start()
        let values = results.waitForAll()
        #expect(values.count == 1)
        #expect(Fixture.failure { _ = try values[0].get() } == "\(script.path): a Lua session must run on the thread that set it up")
        #expect(try strategy.chooseLevel(context) == 0)
    }

    @Test func chooseBeforeSetUpIsAnError() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("fixed.lua", "return { choose = function() return 1 end }")
        var strategy = script.makeStrategy()
        let context = Fixture.context(try Fixture.video(), segment: 0, downloads: [])
        #expect(Fixture.failure { _ = try strategy.chooseLevel(context) } == "\(script.path): the session was not set up before its first decision")
    }

    @Test func outOfRangeAndNonIntegerLevelsAreClearErrors() throws {
        let folder = try ScriptFolder()
        for (name, value, shown) in [("seven", "7", "7"), ("zero", "0", "0"), ("half", "2.5", "2.5"), ("none", "nil", "nil"), ("text", "'2'", "a string value")] {
            let script = try folder.load("\(name).lua", "return { choose = function(ctx) return \(value) end }")
            #expect(Fixture.failure { _ = try Fixture.play(script) } == "\(script.path): choose returned \(shown); levels are 1…6")
        }
        let integral = try folder.load("integral.lua", "return { choose = function(ctx) return 3.0 end }")
        #expect(try Fixture.play(integral, segments: 1) == [2])
    }

    @Test func runtimeErrorsInChooseNameTheLine() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("nil_index.lua", "return {\n  choose = function(ctx)\n    return ctx.nothing.level\n  end,\n}\n")
        #expect(Fixture.failure { _ = try Fixture.play(script) } == "\(script.path):3: ctx has no field 'nothing'")
        let thrown = try folder.load("thrown.lua", "return { choose = function(ctx) error({code = 1}) end }")
        #expect(Fixture.failure { _ = try Fixture.play(thrown) } == "\(thrown.path): choose: error object is a table value")
    }

    @Test func verboseErrorsCarryATraceback() throws {
        let folder = try ScriptFolder()
        let loader = LuaStrategyLoader(verbose: true)
        let script = try folder.load("deep.lua", "local function inner() error('deep') end\nreturn { choose = function(ctx) inner() end }\n", loader: loader)
        let message = Fixture.failure { _ = try Fixture.play(script) } ?? ""
        #expect(message.hasPrefix("\(script.path):1: deep\nstack traceback:"))
        #expect(message.contains("\n\t\(script.path):1: in upvalue 'inner'\n"))
    }
}

/// Collects one result per index from worker threads.
final class Results<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [Result<Value, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ index: Int, _ result: Result<Value, any Error>) {
        condition.lock()
        slots[index] = result
        condition.broadcast()
        condition.unlock()
    }

    func waitForAll() -> [Result<Value, any Error>] {
        condition.lock()
        defer { condition.unlock() }
        while slots.contains(where: { $0 == nil }) { condition.wait() }
        return slots.compactMap { $0 }
    }

    func values() throws -> [Value] { try waitForAll().map { try $0.get() } }
}

/// Hands a strategy to another thread on purpose, to check that the session refuses it.
final class StrategyBox: @unchecked Sendable {
    private var strategy: any SessionStrategy

    init(_ strategy: any SessionStrategy) { self.strategy = strategy }

    func choose(_ context: DecisionContext) throws -> Int { try strategy.chooseLevel(context) }
}
