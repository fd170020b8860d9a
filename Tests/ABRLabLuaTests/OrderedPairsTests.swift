import ABRLabLua
import Testing
import TestSupport

@Suite(.tags(.lua), .selectedByTags) struct OrderedPairsTests {
    /// pairs visits numbers, then strings by bytes, then booleans, whatever the insertion order.
    @Test func pairsVisitsKeysInAFixedOrder() throws {
        let engine = try LuaEngine()
        let code = """
            local t = {}
            for _, key in ipairs({"zeta", "alpha", "Beta", "alpha2"}) do t[key] = #key end
            t[3] = "three"; t[1.5] = "x"; t[-2] = "y"; t[true] = 1; t[false] = 0
            local order = {}
            for key in pairs(t) do order[#order + 1] = tostring(key) end
            assert(table.concat(order, " ") == "-2 1.5 3 Beta alpha alpha2 zeta false true", table.concat(order, " "))
            -- Clearing a key that is still to come skips it, as with next.
            local seen = 0
            for key in pairs(t) do seen = seen + 1; if key == -2 then t.zeta = nil end end
            assert(seen == 8, seen)
            -- __pairs is honoured.
            local proxy = setmetatable({}, { __pairs = function() return function(_, k) if not k then return 1, "one" end end, nil, nil end })
            for key, value in pairs(proxy) do assert(key == 1 and value == "one") end
            return 1
            """
        #expect(try engine.evaluateNumber(code) == 1)
    }

    @Test func sortingAHugeTableStaysWithinTheBudget() throws {
        let engine = try LuaEngine()
        let code = """
            local t = {}
            for i = 1, 20000 do t["k" .. i] = i end
            local n = 0
            for _ in pairs(t) do n = n + 1 end
            return n
            """
        #expect(try engine.evaluateNumber(code) == 20000)
    }
}
