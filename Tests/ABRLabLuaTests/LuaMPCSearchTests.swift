import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// `ctx:mpc_search` as docs/lua-api.md gives it: the core's ``MPCSearch`` over ctx's state, its
/// arguments checked in the shim, its work charged to the instruction budget.
@Suite(.tags(.lua), .selectedByTags) struct LuaMPCSearchTests {
    /// Plays the fixture video; at segment 4 `choose` runs `body` (which sees ctx) and fails
    /// with what it returns, so the test reads it from the error.
    static func answer(_ body: String) throws -> String {
        let folder = try ScriptFolder()
        let script = try folder.load("m.lua", """
            return { choose = function(ctx)
              if ctx.segment_index == 4 then
                local function run() \(body) end
                error(run(), 0)
              end
              return 3
            end }
            """)
        return Fixture.failure { _ = try Fixture.play(script) } ?? "no error"
    }

    /// What the core's search answers for ctx at segment 4 of Fixture.play (level 3 so far, 8 s
    /// of buffer, 10 segments).
    static func native(_ bandwidth: Double, horizon: Int, offset: Int, penalties: (Double, Double) = (4.3, 1)) throws -> (Int, Double) {
        let video = try Fixture.video()
        let search = MPCSearch(
            levelsKbps: video.ladder.map(\.bitrateKbps), segmentSeconds: 4, rebufferPenalty: penalties.0, smoothnessPenalty: penalties.1
        )
        let outcome = search.run(
            depth: min(horizon, 10 - 3), firstSegment: 3 + offset, bandwidthMBps: bandwidth, bufferSeconds: 8, lastLevel: 2,
            sizeBytes: video.sizeBytes
        )
        guard case .best(let level, let reward, _) = outcome else { throw TestFailure("the search stopped") }
        return (level + 1, reward)
    }

    @Test(arguments: [(0.5, 5, 0), (1.3, 3, 1), (0.2, 10, 2), (5, 1, 0), (0.7, 5, -1), (0.7, 5, 40)])
    func answersAsTheNativeSearch(bandwidth: Double, horizon: Int, offset: Int) throws {
        let (level, reward) = try Self.native(bandwidth, horizon: horizon, offset: offset)
        let text = try Self.answer("""
            assert(ctx.buffer_s == 8 and ctx.last_level == 3)
            local level, reward = ctx:mpc_search(\(bandwidth), \(horizon), \(offset))
            return string.format("%d %.17g", level, reward)
            """)
        #expect(text.hasSuffix(": \(level) \(String(format: "%.17g", reward))"), "\(text)")
    }

    /// Called as a method, Lua counts arguments after ctx; called as a function, from ctx.
    @Test(arguments: [
        ("ctx:mpc_search(0, 5)", "bad argument #1 to 'mpc_search' (bandwidth must be positive (MB/s))"),
        ("ctx:mpc_search(0/0, 5)", "bad argument #1 to 'mpc_search' (bandwidth must be positive (MB/s))"),
        ("ctx:mpc_search(1, 0)", "bad argument #2 to 'mpc_search' (horizon must be 1…10)"),
        ("ctx:mpc_search(1, 11)", "bad argument #2 to 'mpc_search' (horizon must be 1…10)"),
        ("ctx:mpc_search(1, 2.5)", "bad argument #2 to 'mpc_search' (number has no integer representation)"),
        ("ctx:mpc_search(1, 5, 0.5)", "bad argument #3 to 'mpc_search' (number has no integer representation)"),
        ("ctx:mpc_search(1, 5, 1, 'a')", "bad argument #4 to 'mpc_search' (number expected, got string)"),
        ("ctx.mpc_search(3, 1, 5)", "bad argument #1 to 'mpc_search' (table expected, got number)"),
        ("ctx.mpc_search({segment_index = 1, segment_count = 10, buffer_s = 3, last_level = 9}, 1, 5)",
         "bad argument #1 to 'mpc_search' (ctx.last_level out of range)"),
        ("ctx.mpc_search({segment_index = 1, segment_count = 10, buffer_s = 3}, 1, 5)",
         "bad argument #-1 to 'mpc_search' (number expected, got nil)"),
    ])
    func badArgumentsAreErrorsAtTheCallingLine(call: String, message: String) throws {
        let text = try Self.answer("return tostring(\(call))")
        #expect(text.hasSuffix("m.lua:3: \(message)"), "\(text)")
    }

    /// A search whose nodes cost more than the call has left ends the call with the budget
    /// error at the line that called it, without visiting the rest of its 6¹⁰ sequences.
    @Test func aSearchBeyondTheBudgetStopsAtTheCallingLine() throws {
        let text = try Self.answer("return tostring(ctx:mpc_search(1, 10, 0, -1, 1))")
        #expect(text.hasSuffix("m.lua:3: choose exceeded the budget of 10000000 instructions per call"), "\(text)")
    }
}

