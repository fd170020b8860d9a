import ABRLabLua
import Testing

/// Long strings the libraries build (`table.concat`, `string.format`, …) under the memory cap:
/// they fail only when live data leaves no room, whatever garbage earlier work left, and a
/// failed one leaves nothing behind.
@Suite struct LuaMemoryTests {
    static let limits = LuaLimits(instructionsPerCall: 50_000_000, secondsPerCall: 30, memoryBytesPerEngine: 1 << 20, stringRepBytes: 1 << 20)

    /// Fills the cap with live tables inside `fill_and_try`, where `try` fails; the filler is
    /// garbage once that function returns.
    static let filler = """
        local function fill_and_try(try)
          local filler = {}
          pcall(function() while true do filler[#filler + 1] = {} end end)
          return pcall(try)
        end
        """

    /// `bytes(n)`: a string of n bytes built with `..`, which needs no library buffer.
    static let bytes = """
        local function bytes(n)
          local s, piece = "", "x"
          while n > 0 do
            if n % 2 == 1 then s = s .. piece end
            piece, n = piece .. piece, n // 2
          end
          return s
        end
        """

    /// `count` times one string of 64 bytes, whose join is `count` × 64 bytes.
    static func parts(_ name: String, count: Int) -> String {
        "local \(name) = {} for i = 1, \(count) do \(name)[i] = '\(String(repeating: "x", count: 64))' end"
    }

    /// The first long buffer in an engine, with every allocation it makes refused in turn: the
    /// script fills the cap with live tables after setting aside `reserve` bytes, then frees them
    /// (a refused stack growth makes Lua collect them). Later buffers must still work, and leave
    /// the engine's memory where it was once they are garbage.
    @Test func aFirstBufferRefusedAnywhereLeavesLaterBuffersWorking() throws {
        let workload = """
            \(Self.parts("parts", count: 64))
            local s = table.concat(parts)
            return #s + #string.format("%s%s", s, s) + #s:upper()
            """
        for reserve in stride(from: 0, through: 4000, by: 8) {
            let engine = try LuaEngine(limits: Self.limits)
            _ = try engine.evaluateNumber("""
                \(Self.bytes)
                local parts = {} for i = 1, 18 do parts[i] = bytes(64) end
                local reserve = bytes(\(reserve))
                local filler
                pcall(function() while true do filler = { filler } end end)
                reserve = nil
                pcall(table.unpack, {}, 1, 100000)
                pcall(table.concat, parts)
                filler = nil
                return 0
                """)
            #expect(try engine.evaluateNumber(workload) == 4 * 4096)
            engine.collectGarbage()
            let before = engine.memoryBytes
            for _ in 0..<4 { _ = try engine.evaluateNumber(workload) }
            engine.collectGarbage()
            #expect(engine.memoryBytes <= before + 512, "reserve \(reserve): \(engine.memoryBytes - before) bytes more")
        }
    }

    /// Lua collects garbage before a refused allocation fails; a buffer's growth bypasses that, so
    /// without the sandbox's retry a 256 KiB join failed while the cap was full of garbage.
    @Test func aLongConcatFitsOnceGarbageIsCollected() throws {
        let engine = try LuaEngine(limits: Self.limits)
        let length = try engine.evaluateNumber("""
            \(Self.parts("parts", count: 4096))
            \(Self.filler)
            assert(not fill_and_try(function() return table.concat(parts) end), "fits beside the filler")
            return #table.concat(parts)
            """)
        #expect(length == 4096 * 64)
    }

    @Test func aLongFormatFitsOnceGarbageIsCollected() throws {
        let engine = try LuaEngine(limits: Self.limits)
        let length = try engine.evaluateNumber("""
            \(Self.parts("parts", count: 2048))
            local half = table.concat(parts)
            \(Self.filler)
            assert(not fill_and_try(function() return string.format("%s%s", half, half) end), "fits beside the filler")
            return #string.format("%s%s", half, half)
            """)
        #expect(length == 2 * 2048 * 64)
    }

    /// A join that live data leaves no room for still fails, with the memory error.
    @Test func aConcatThatCannotFitStillFails() throws {
        let engine = try LuaEngine(limits: Self.limits)
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("""
                \(Self.parts("parts", count: 8192))
                local function garbage() local t = {} for i = 1, 5000 do t[i] = {} end end
                garbage()
                return #table.concat(parts)
                """)
        }
        #expect(try engine.evaluateNumber("return #table.concat({'a', 'b'})") == 2)
    }

    /// A retried concat or format must not call the script's metamethods again: the list's
    /// `__index` and `__len` and the `__tostring` of a `%s` argument run once per call. Each call
    /// here starts with 8 KiB free and the cap otherwise full of garbage, so the metamethods
    /// run and the long buffer then needs a collection.
    @Test func metamethodsRunOncePerCallWhenABufferNeedsACollection() throws {
        let engine = try LuaEngine(limits: Self.limits)
        let counts = try engine.evaluateNumber("""
            \(Self.bytes)
            local piece, half = bytes(4096), bytes(131072)
            local reads, lengths, strings = 0, 0, 0
            local list = setmetatable({}, {
              __index = function() reads = reads + 1 return piece end,
              __len = function() lengths = lengths + 1 return 64 end,
            })
            local object = setmetatable({}, { __tostring = function() strings = strings + 1 return half end })
            local function fill_and_free_8k()
              local reserve, filler = bytes(8192), nil
              pcall(function() while true do filler = { filler } end end)
              reserve = nil
              pcall(table.unpack, {}, 1, 100000)
            end
            fill_and_free_8k()
            local joined = table.concat(list)
            fill_and_free_8k()
            local formatted = string.format("%s%s", object, half)
            assert(#joined == 64 * 4096 and #formatted == 2 * 131072)
            return reads * 1000000 + lengths * 1000 + strings
            """)
        #expect(counts == 64_001_001)
    }

    /// A call ends with the memory error only when it fails on one. A refusal the script caught,
    /// or that a collection recovered from, once made any later error of the call read "memory
    /// limit exceeded".
    @Test func aRefusalCaughtOrRecoveredFromLeavesLaterErrorsTheirOwn() throws {
        let engine = try LuaEngine(limits: Self.limits)
        let grow = "local t = {} for i = 1, 1e8 do t[i] = i end"
        #expect(throws: LuaError(kind: .runtime, message: "caught.lua:2: boom")) {
            try engine.evaluateNumber("pcall(function() \(grow) end)\nerror('boom')", chunkName: "=caught.lua")
        }
        #expect(throws: LuaError(kind: .runtime, message: "recovered.lua:9: boom")) {
            try engine.evaluateNumber("""
                \(Self.parts("parts", count: 4096))
                \(Self.filler)
                fill_and_try(function() return table.concat(parts) end)
                assert(#table.concat(parts) == 4096 * 64)
                error('boom')
                """, chunkName: "=recovered.lua")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("local ok, e = pcall(function() \(grow) end)\nerror(e, 0)")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("\(Self.parts("parts", count: 8192))\nlocal ok, e = pcall(table.concat, parts)\nerror(e, 0)")
        }
    }
}
