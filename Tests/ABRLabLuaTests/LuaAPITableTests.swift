import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Scripts are given exactly what ``LuaAPITable`` declares: every field with its Lua type, nil
/// only where the declaration says it may be, and strict tables refusing anything else.
@Suite(.tags(.lua), .selectedByTags) struct LuaAPITableTests {
    /// `SEEN(t, names)`: "name=type;…" for every key of `t` (numbers by math.type, arrays as
    /// "integer[]", "float[]", "table[]" or "[]" when empty), then "|" and every declared name
    /// the table refuses to read.
    static let seen = """
        local function kind(v)
          if type(v) == "number" then return math.type(v) end
          if type(v) ~= "table" then return type(v) end
          if #v > 0 then local first = v[1]; return (type(first) == "number" and math.type(first) or type(first)) .. "[]" end
          return next(v) == nil and "[]" or "table"
        end
        function SEEN(t, names)
          local out = {}
          for k, v in pairs(t) do out[#out + 1] = k .. "=" .. kind(v) end
          local refused = {}
          for _, name in ipairs(names) do
            if not pcall(function() return t[name] end) then refused[#refused + 1] = name end
          end
          local ok, message = pcall(function() return t.not_a_field end)
          return table.concat(out, ";") .. "|" .. table.concat(refused, ";") .. "|" .. (ok and "lenient" or message)
        end
        """

    /// What a script saw of one table.
    struct Seen {
        let types: [String: String]
        let refused: [String]
        let strictness: String
    }

    /// Runs `body`, which plays a script that fails with SEEN's text, and reads it back.
    static func seen(_ body: () throws -> Void) throws -> Seen {
        let failure = Fixture.failure(body) ?? ""
        guard let start = failure.range(of: "SEEN:") else { throw TestFailure("the script did not report: \(failure)") }
        let text = failure[start.upperBound...].prefix { $0 != "\n" && $0 != "(" }.trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        var types: [String: String] = [:]
        for pair in parts[0].split(separator: ";") {
            let halves = pair.split(separator: "=")
            types[String(halves[0])] = String(halves[1])
        }
        return Seen(types: types, refused: parts[1].split(separator: ";").map(String.init), strictness: parts.count > 2 ? parts[2] : "")
    }

    /// A script that reports `expression` (a table) from `hook` once `condition` holds.
    static func script(hook: String, arguments: String, expression: String, condition: String, table: LuaAPITable) -> String {
        let names = table.fields.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return """
            \(seen)
            local M = {}
            function M.\(hook)(\(arguments))
              if \(condition) then error("SEEN:" .. SEEN(\(expression), {\(names)}), 0) end
              \(hook == "choose" ? "return ctx.segment_index > 1 and 2 or 1" : "")
            end
            \(hook == "choose" ? "" : "function M.choose(ctx) return ctx.segment_index > 1 and 2 or 1 end")
            return M
            """
    }

    static func lua(_ kind: LuaAPIField.Kind) -> Set<String> {
        switch kind {
        case .integer: ["integer"]
        case .number: ["float"]
        case .boolean: ["boolean"]
        case .string: ["string"]
        case .integers: ["integer[]", "[]"]
        case .numbers: ["float[]", "[]"]
        case .tables: ["table[]", "[]"]
        case .table: ["table", "[]"]
        case .function: ["function"]
        }
    }

    static func check(_ seen: Seen, _ table: LuaAPITable, live: Bool, _ scenario: String) {
        let declared = table.fields
        #expect(!seen.types.isEmpty, "\(scenario): the script saw no fields")
        for field in declared {
            guard let type = seen.types[field.name] else {
                let mayBeMissing = field.absence == .whenUnset || (field.absence == .offLive && !live)
                #expect(mayBeMissing, "\(scenario): \(table.name).\(field.name) is missing")
                continue
            }
            #expect(field.absence != .offLive || live, "\(scenario): \(table.name).\(field.name) is set off live")
            #expect(Self.lua(field.kind).contains(type), "\(scenario): \(table.name).\(field.name) is a \(type), declared \(field.kind)")
        }
        let undeclared = Set(seen.types.keys).subtracting(declared.map(\.name))
        #expect(undeclared.isEmpty, "\(scenario): \(table.name) has undeclared \(undeclared.sorted())")
        #expect(seen.refused.isEmpty, "\(scenario): \(table.name) refuses its declared \(seen.refused)")
        let strictness = table.isStrict ? "\(table.name) has no field 'not_a_field'" : "lenient"
        #expect(seen.strictness.hasSuffix(strictness), "\(scenario): \(table.name) answered \(seen.strictness)")
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let table: LuaAPITable
        let hook: String
        let arguments: String
        let expression: String
        let condition: String
        let profile: String
        var testDescription: String { "\(table.name) in \(hook) on \(profile)" }
    }

    static let scenarios: [Scenario] = [
        Scenario(table: .ctx, hook: "choose", arguments: "ctx", expression: "ctx", condition: "ctx.segment_index == 3", profile: "default"),
        Scenario(table: .ctx, hook: "choose", arguments: "ctx", expression: "ctx", condition: "ctx.segment_index == 3", profile: "live"),
        Scenario(table: .ctx, hook: "choose", arguments: "ctx", expression: "ctx", condition: "ctx.segment_index == 9", profile: "dashjs"),
        Scenario(table: .report, hook: "on_download", arguments: "report", expression: "report", condition: "report.segment_index == 2", profile: "default"),
        Scenario(table: .report, hook: "on_download", arguments: "report", expression: "report", condition: "report.segment_index == 2", profile: "live"),
        Scenario(table: .chunk, hook: "choose", arguments: "ctx", expression: "ctx.last_chunks[1]", condition: "ctx.segment_index == 3", profile: "live"),
        Scenario(table: .progress, hook: "check_abandon", arguments: "progress", expression: "progress", condition: "progress.elapsed_s > 0.3", profile: "sabre"),
        Scenario(table: .wait, hook: "on_wait", arguments: "wait", expression: "wait", condition: "true", profile: "sabre-fast"),
        Scenario(table: .session, hook: "setup", arguments: "session", expression: "session", condition: "true", profile: "default"),
        Scenario(table: .session, hook: "setup", arguments: "session", expression: "session", condition: "true", profile: "live"),
    ]

    @Test(arguments: scenarios)
    func scriptsSeeWhatIsDeclared(_ scenario: Scenario) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("seen.lua", Self.script(
            hook: scenario.hook, arguments: scenario.arguments, expression: scenario.expression, condition: scenario.condition, table: scenario.table
        ))
        let seen = try Self.seen {
            switch scenario.profile {
            case "live":
                _ = try LuaLiveTests.run(script)
            case "dashjs":
                let (trace, video) = try RequestHookTests.inputs()
                var strategy = LuaStrategy(script: script)
                _ = try SessionEmulator(profile: .dashjs).run(&strategy, strategyID: "seen", trace: trace, video: video)
            case "sabre", "sabre-fast", "default":
                var (trace, video) = try RequestHookTests.inputs()
                if scenario.profile == "sabre-fast" {
                    trace = try NetworkTrace(name: "fast", periodEndSeconds: [60, 120], bandwidthBitsPerSecond: [20_000_000, 20_000_000], latencySeconds: [0.05, 0.05])
                }
                var strategy = LuaStrategy(script: script)
                _ = try SessionEmulator(profile: scenario.profile == "default" ? .default : .sabre)
                    .run(&strategy, strategyID: "seen", trace: trace, video: video)
            default:
                Issue.record("no profile \(scenario.profile)")
            }
        }
        Self.check(seen, scenario.table, live: scenario.profile == "live", scenario.testDescription)
    }

    @Test(arguments: [false, true])
    func checkSeesTheVideoAsDeclared(live: Bool) throws {
        let folder = try ScriptFolder()
        let script = try folder.load("seen.lua", Self.script(
            hook: "check", arguments: "video", expression: "video", condition: "true", table: .video
        ))
        let seen = try Self.seen { _ = try script.fit(LuaScriptFitTests.setting(live: live)) }
        Self.check(seen, .video, live: live, "video, live \(live)")
    }

    @Test(arguments: [LuaAPITable.qoeSegment, .qoeSession])
    func qoeScriptsSeeWhatIsDeclared(_ table: LuaAPITable) throws {
        let folder = try ScriptFolder()
        let video = try LuaQoEModelTests.qualityVideo()
        let outcome = try LuaQoEModelTests.plan(video: video, customQoE: nil).runSession(index: 1)
        let result = try #require(outcome.result)
        let names = table.fields.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let expression = table == .qoeSegment ? "segment" : "session"
        let path = try folder.write("q.lua", """
            \(Self.seen)
            return { qoe = function(segment, session)
              if segment.index == 3 then error("SEEN:" .. SEEN(\(expression), {\(names)}), 0) end
              return 0
            end }
            """)
        let seen = try Self.seen { _ = try LuaQoEModel(path: path).segmentScores(result, video: video, seed: outcome.seed) }
        Self.check(seen, table, live: false, table.name)
    }
}
