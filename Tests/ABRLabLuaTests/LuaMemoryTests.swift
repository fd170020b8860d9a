@testable import ABRLabLua
import CLuaShim
import Testing

/// Long strings the libraries build (`table.concat`, `string.format`, …) under the memory cap.
@Suite struct LuaMemoryTests {
    static let limits = LuaLimits(instructionsPerCall: 50_000_000, secondsPerCall: 30, memoryBytesPerEngine: 1 << 20, stringRepBytes: 1 << 20)

    /// Parts of 64 bytes whose join is `count` × 64 bytes.
    static func parts(_ name: String, count: Int) -> String {
        "local \(name) = {} for i = 1, \(count) do \(name)[i] = ('x'):rep(64) end"
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
                local function bytes(n)
                  local s, piece = "", "x"
                  while n > 0 do
                    if n % 2 == 1 then s = s .. piece end
                    piece, n = piece .. piece, n // 2
                  end
                  return s
                end
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
}

extension LuaEngine {
    /// Runs a full collection (the shim's release of no compiled scripts does just that).
    func collectGarbage() {
        abrl_script_release(handle, nil, 0)
    }
}
