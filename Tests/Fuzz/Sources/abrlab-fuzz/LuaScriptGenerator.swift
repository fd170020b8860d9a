/// Turns fuzz input into a strategy script for the sandbox: random compositions of the allowed
/// library calls, metamethods, deep nesting, long strings, recursion and `load`, inside a
/// well-formed strategy table so the hostile code is reached at load time, in `setup`, in
/// `choose`, in `on_download` and in `check_abandon` (with its recheck tables).
struct LuaScriptGenerator {
    private var input: FuzzBytes
    private var depth = 0
    /// Deep enough to reach the parser's and the C stack's limits, bounded so generation stays fast.
    private static let maximumDepth = 12

    init(_ bytes: [UInt8]) { input = FuzzBytes(bytes) }

    mutating func script() -> String {
        let topLevel = statements(count: input.below(4))
        let setup = statements(count: input.below(4))
        let choose = statements(count: 1 + input.below(6))
        let onDownload = statements(count: input.below(4))
        let result = input.below(4) == 0 ? expression() : "1 + (ctx.segment_index % ctx.level_count)"
        let check = statements(count: input.below(3))
        let answer = abandonmentAnswer()
        return """
            local M = { name = "hostile", params = { k = \(number()) } }
            local S = {}
            \(topLevel)
            function M.setup(session)
            \(setup)
            end
            function M.choose(ctx)
            \(choose)
            return \(result)
            end
            function M.on_download(report)
            \(onDownload)
            end
            function M.check_abandon(progress)
            \(check)
            return \(answer)
            end
            return M
            """
    }

    /// What check_abandon returns: nothing, a level, or a recheck table well or badly formed.
    private mutating func abandonmentAnswer() -> String {
        switch input.below(6) {
        case 0: return "nil"
        case 1: return "progress.level - 1"
        case 2: return "nil, { elapsed_s = progress.elapsed_s + \(number()) }"
        case 3: return "nil, { projected_s = \(expression()), elapsed_s = \(number()) }"
        case 4: return "nil, setmetatable({ elapsed_s = \(number()) }, { __index = function() return 1 end, __pairs = error })"
        default: return "\(expression()), \(expression())"
        }
    }

    private mutating func statements(count: Int) -> String {
        (0..<count).map { _ in statement() }.joined(separator: "\n")
    }

    private mutating func statement() -> String {
        guard depth < Self.maximumDepth else { return "S.x = \(number())" }
        depth += 1
        defer { depth -= 1 }
        switch input.below(16) {
        case 0: return "S[\(expression())] = \(expression())"
        case 1: return "local v = \(expression())"
        case 2: return "pcall(function() \(statement()) end)"
        case 3: return "for i = 1, \(smallCount()) do \(statement()) end"
        case 4: return "if \(expression()) then \(statement()) else \(statement()) end"
        case 5: return "S.t = setmetatable({}, { \(metamethods()) })"
        case 6: return "local f; f = function(n) if n > 0 then return f(n - 1) end return \(expression()) end; S.r = f(\(smallCount()))"
        case 7: return "error(\(expression()))"
        case 8: return "S.l = load(\(luaString()))"
        case 9: return "xpcall(function() \(statement()) end, function(m) \(statement()) return m end)"
        case 10: return "while \(expression()) do \(statement()) break end"
        case 11: return "S.s = (S.s or '') .. \(expression())"
        case 12: return "table.insert(S, \(expression()))"
        case 13: return "do local t = S.t or {} ; S.u = t[\(expression())] end"
        case 14: return "_G[\(luaString())] = \(expression())"
        default: return "assert(\(expression()), \(expression()))"
        }
    }

    private mutating func expression() -> String {
        guard depth < Self.maximumDepth else { return number() }
        depth += 1
        defer { depth -= 1 }
        switch input.below(20) {
        case 0, 1: return number()
        case 2, 3: return luaString()
        case 4: return "ctx and ctx.\(input.pick(Self.contextFields))"
        case 5: return "\(input.pick(Self.libraryCalls))(\(arguments()))"
        case 6: return "(\(expression()) \(input.pick(Self.operators)) \(expression()))"
        case 7: return "{ \(arguments()) }"
        case 8: return "setmetatable({}, { \(metamethods()) })"
        case 9: return "string.rep(\(luaString()), \(input.pick(["1e3", "1e5", "1048576", "1048577", "1e9", "-1", "0/0"])))"
        case 10: return "string.format(\(input.pick(Self.formats)), \(arguments()))"
        case 11: return "select(\(input.pick(["'#'", "1", "-1", "2^31", "0"])), \(arguments()))"
        case 12: return "(function(...) return \(expression()) end)(\(arguments()))"
        case 13: return "table.unpack({ \(arguments()) }, \(number()), \(number()))"
        case 14: return "(S.t or {})[\(expression())]"
        case 15: return String(repeating: "{", count: depth * 20) + String(repeating: "}", count: depth * 20)
        case 16: return "pcall(\(input.pick(Self.libraryCalls)), \(arguments()))"
        case 17: return "#\(luaString())"
        case 18: return "(load(\(luaString())) or function() end)()"
        default: return "tostring(\(expression()))"
        }
    }

    private mutating func arguments() -> String {
        (0..<input.below(4)).map { _ in expression() }.joined(separator: ", ")
    }

    private mutating func metamethods() -> String {
        (0..<(1 + input.below(3))).map { _ in
            let body = input.below(3) == 0 ? "return \(expression())" : input.pick(Self.metamethodBodies)
            return "\(input.pick(Self.metamethodNames)) = function(a, b) \(body) end"
        }.joined(separator: ", ")
    }

    private mutating func number() -> String {
        switch input.below(4) {
        case 0: return input.pick(Self.specialNumbers)
        case 1: return String(Int32(bitPattern: input.uint32()))
        default: return String(input.below(8))
        }
    }

    private mutating func smallCount() -> String { input.pick(["0", "1", "3", "200", "1e4", "1e7", "math.huge"]) }

    /// A Lua string literal: escapes, long strings, bytes outside UTF-8, a newline.
    private mutating func luaString() -> String {
        switch input.below(6) {
        case 0: return "'\\n\\0\\255'"
        case 1: return "[[\(String(repeating: "x", count: input.below(64)))]]"
        case 2: return "'return ' .. \(input.pick(["'1'", "'('", "'S'", "'...'", "'function() end'"]))"
        default:
            let length = input.below(12)
            let characters = (0..<length).map { _ in input.pick(Self.stringCharacters) }
            return "'" + characters.joined() + "'"
        }
    }

    private static let contextFields = [
        "segment_index", "segment_count", "segment_duration_s", "levels_kbps", "level_count", "last_level",
        "buffer_s", "rebuffer_s", "stall_count", "elapsed_s", "estimate_kbps", "network_quality", "max_buffer_s",
        "throughputs_kbps", "download_times_s", "sizes_bytes", "size_bytes(1, 1)", "no_such_field",
        "mpc_search(ctx, 1, 10, 0, 4.3, 1)",
    ]
    private static let libraryCalls = [
        "string.byte", "string.char", "string.find", "string.format", "string.len", "string.lower", "string.upper",
        "string.rep", "string.reverse", "string.sub", "string.pack", "string.packsize", "string.unpack",
        "string.gsub", "string.match", "string.dump", "table.concat", "table.insert", "table.move", "table.pack",
        "table.remove", "table.sort", "table.unpack", "math.floor", "math.max", "math.min", "math.fmod",
        "math.tointeger", "math.random", "math.randomseed", "math.abs", "math.ult", "utf8.char", "utf8.codepoint",
        "utf8.len", "utf8.offset", "utf8.codes", "tostring", "tonumber", "type", "rawequal", "rawget", "rawlen",
        "rawset", "next", "pairs", "ipairs", "select", "setmetatable", "getmetatable", "error", "assert", "load",
        "print", "pcall", "xpcall", "io.open", "os.exit", "require", "collectgarbage",
    ]
    private static let operators = [
        "+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=", "and", "or", "&", "|", "~", "<<", ">>",
    ]
    private static let formats = [
        "'%d'", "'%s'", "'%q'", "'%99d'", "'%.99f'", "'%a'", "'%c'", "'%x'", "'%5.2s'", "'%i'", "'%'", "'%-099d'",
        "string.rep('%s', 200)",
    ]
    private static let metamethodNames = [
        "__index", "__newindex", "__call", "__tostring", "__len", "__eq", "__lt", "__le", "__concat", "__add",
        "__unm", "__close", "__name", "__metatable", "__pairs", "__mode", "__gc",
    ]
    private static let metamethodBodies = [
        "return a[b]", "a[b] = b", "return a .. b", "return #a", "return a < b", "return tostring(a)",
        "while true do end", "error(a)", "return setmetatable({}, getmetatable(a))", "return a(b)",
    ]
    private static let specialNumbers = [
        "0/0", "-0.0", "1/0", "-1/0", "math.huge", "math.maxinteger", "math.mininteger", "1e-300", "1e308",
        "2^53", "2^63", "-2^63", "0x7fffffffffffffff", "3.5", "-1",
    ]
    private static let stringCharacters = [
        "a", "%", "(", ")", "\\n", "\\\\", "\\\"", "\\'", "\\0", "\\xff", "\\u{10FFFF}", "é", " ", "[", "]", "s", "d",
    ]
}
