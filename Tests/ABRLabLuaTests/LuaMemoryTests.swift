import ABRLabLua
import Testing
import TestSupport

/// Long strings the libraries build (`table.concat`, `string.format`, …) under the memory cap:
/// they fail only when live data leaves no room, whatever garbage earlier work left, and a
/// failed one leaves nothing behind.
@Suite(.tags(.lua, .scale), .selectedByTags) struct LuaMemoryTests {
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

    /// The leak a fuzzer found: a long buffer's memory comes straight from the allocator and is
    /// freed by the buffer box's `__close`, or else its `__gc`. Lua needs a fresh CallInfo
    /// (64 bytes) to call either at a call depth not reached before, so with the cap full of
    /// live data both can be refused: the close first, then the finalizer, which a collection
    /// step runs (Lua only warns when it fails) before freeing the box without its buffer.
    ///
    /// The script fills the cap exactly with live strings, tables and closures, then frees
    /// `2n + 64` bytes: room for `("x"):rep(n)`'s box, its n-byte buffer and the n-byte result,
    /// but not for the close's CallInfo. Then it keeps about half the cap live and has Lua
    /// collect (an emergency collection, which runs no finalizers), so that the next cycle
    /// starts when live data reaches the cap again; it grows a chain of tables 40 calls deeper
    /// than before until the cap is full, and that cycle calls the finalizer there. Whether the
    /// finalizer's CallInfo is then refused depends on the bytes left when the cycle starts,
    /// hence the sweep over n. Before buffers.c, 14 of these 38 values of n kept n bytes (12 on
    /// the first run, 2 on the second); shifting the engine's own memory moved which ones, not
    /// how many.
    @Test func aBufferWhoseCloseAndFinalizerAreRefusedLeavesNothingBehind() throws {
        for n in stride(from: 3000, through: 3300, by: 8) {
            let script = Self.refusedCloseThenFinalizer(repeating: n)
            let engine = try LuaEngine(limits: Self.limits)
            engine.collectGarbage()
            let fresh = engine.memoryBytes
            _ = try engine.evaluateNumber(script)
            engine.collectGarbage()
            let settled = engine.memoryBytes
            // The first run may leave Lua's own CallInfos and stack longer, never a buffer.
            #expect(settled - fresh < n, "n \(n): first run kept \(settled - fresh) bytes")
            _ = try engine.evaluateNumber(script)
            engine.collectGarbage()
            #expect(engine.memoryBytes == settled, "n \(n): second run kept \(engine.memoryBytes - settled) bytes")
        }
    }

    static func refusedCloseThenFinalizer(repeating n: Int) -> String {
        """
        local cap, n = \(limits.memoryBytesPerEngine), \(n)
        local sub, pcall = string.sub, pcall
        local big = ("abcdefghijklmnopqrstuvwxyz0123456789"):rep(2000)
        local live, sizes, count = {}, {}, 0
        for i = 1, 100 do live[i], sizes[i] = false, 0 end
        -- Fills the cap with live objects, largest first, to within 32 bytes (a closure).
        local makers = { function() return {} end, function() return function() end end }
        local function fill()
          for _, length in ipairs({ 65000, 16000, 4000, 1000, 250, 60, 41 }) do
            while true do
              local ok, s = pcall(sub, big, 1, length)
              if not ok then break end
              count = count + 1
              live[count], sizes[count] = s, length + 25
            end
          end
          for _, make in ipairs(makers) do
            while true do
              local ok, object = pcall(make)
              if not ok then break end
              count = count + 1
              live[count] = object
            end
          end
        end
        -- Longer than the cap: asking for it makes Lua collect garbage, then fail.
        local function collect()
          return big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big .. big
        end
        local function deep(depth, f)
          if depth == 0 then return f() end
          return (deep(depth - 1, f))
        end

        -- The close of the buffer is refused.
        local reserve = sub(big, 1, 2 * n + 64)
        fill()
        reserve = nil
        pcall(collect)
        pcall(string.rep, "x", n)

        -- About half the cap stays live, so Lua's next cycle starts near the cap.
        local half = cap // 2 - 1925
        local held = cap - (2 * n + 64 + 25)
        for i = 1, count do
          if sizes[i] > 60000 and held > half then held, live[i] = held - sizes[i], false end
        end
        local pad = sub(big, 1, half - held - 25)
        local chain = {}
        local function grow()
          local t = chain
          while true do t = { t } end
        end
        local function deeper()
          pcall(collect)
          return deep(40, grow)
        end
        pcall(deeper)
        return 0
        """
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
            try engine.evaluateNumber("pcall(function() \(grow) end)\nerror('boom')", sourceName: "=caught.lua")
        }
        #expect(throws: LuaError(kind: .runtime, message: "recovered.lua:9: boom")) {
            try engine.evaluateNumber("""
                \(Self.parts("parts", count: 4096))
                \(Self.filler)
                fill_and_try(function() return table.concat(parts) end)
                assert(#table.concat(parts) == 4096 * 64)
                error('boom')
                """, sourceName: "=recovered.lua")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("local ok, e = pcall(function() \(grow) end)\nerror(e, 0)")
        }
        #expect(throws: LuaError(kind: .memory, message: "memory limit exceeded")) {
            try engine.evaluateNumber("\(Self.parts("parts", count: 8192))\nlocal ok, e = pcall(table.concat, parts)\nerror(e, 0)")
        }
    }
}
