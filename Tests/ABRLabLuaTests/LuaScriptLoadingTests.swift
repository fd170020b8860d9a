import ABRLab
import ABRLabLua
import Testing
import TestSupport

@Suite(.tags(.lua), .selectedByTags) struct LuaScriptLoadingTests {
    static let good = """
        -- A fixed-level strategy with one parameter of each type.
        local M = {
          name = "Fixed level",
          description = "Always plays params.level",
          params = { level = 2, safety = 0.9, enabled = true, label = "plain" },
        }
        function M.choose(ctx)
          return M.params.level
        end
        return M
        """

    @Test func loadsNameDescriptionParamsAndId() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("fixed_level.lua", Self.good)
        #expect(script.id == "fixed_level")
        #expect(script.name == "Fixed level")
        #expect(script.description == "Always plays params.level")
        #expect(script.form == .session)
        #expect(script.path.hasSuffix("/fixed_level.lua"))
        #expect(script.defaultParams == [
            LuaParam(key: "enabled", value: .boolean(true)),
            LuaParam(key: "label", value: .string("plain")),
            LuaParam(key: "level", value: .integer(2)),
            LuaParam(key: "safety", value: .number(0.9)),
        ])
        #expect(try Fixture.play(script) == Array(repeating: 1, count: 10))
    }

    @Test func descriptorNamesTheScriptAndMakesFreshStrategies() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("fixed_level.lua", Self.good)
        let descriptor = script.descriptor()
        #expect(descriptor.id == "fixed_level")
        #expect(descriptor.name == "Fixed level")
        #expect(descriptor.source == script.path)
        var strategy = try descriptor.makeStrategy()
        #expect(try Fixture.play(&strategy, video: Fixture.video()) == Array(repeating: 1, count: 10))
    }

    @Test func nameDefaultsToTheId() throws {
        let folder = try ScriptFolder()
        let script = try folder.load("bare.lua", "return { choose = function() return 1 end }")
        #expect(script.name == "bare")
        #expect(script.description == "")
        #expect(script.params.isEmpty)
    }

    @Test func syntaxErrorNamesFileAndLine() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("broken.lua", "local M = {}\nfunction M.choose(ctx)\n  return ctx.level_count +\nend\nreturn M\n")
        let message = Fixture.failure { _ = try LuaStrategyLoader().load(path: path) }
        #expect(message?.hasPrefix("\(path):4: unexpected symbol near 'end'") == true)
    }

    @Test func missingChooseIsAClearError() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("nothing.lua", "return { name = 'Nothing' }")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: path) } == "\(path): the script defines no choose function")
        let notTable = try folder.write("number.lua", "return 42")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: notTable) } == "\(notTable): the script must return a table, not a number value")
        let wrongType = try folder.write("wrong.lua", "return { choose = 3 }")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: wrongType) } == "\(wrongType): choose must be a function, not a number value")
    }

    @Test func runtimeErrorAtLoadNamesTheLine() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("boom.lua", "local M = {}\nerror('no luck')\nreturn M\n")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: path) } == "\(path):2: no luck")
    }

    @Test func badParamsAreRejectedAtLoad() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("p.lua", "return { params = { ladder = {1, 2} }, choose = function() return 1 end }")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: path) }
            == "\(path): params.ladder must be a number, integer, boolean or string, not a table value")
    }

    @Test func overridesKeepTheDefaultsType() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("fixed_level.lua", Self.good)
        let loader = LuaStrategyLoader(overrides: ["fixed_level": ["level": "4", "safety": "0.5", "enabled": "false", "label": "x y"]])
        let script = try loader.load(path: path)
        #expect(script.params == [
            LuaParam(key: "enabled", value: .boolean(false)),
            LuaParam(key: "label", value: .string("x y")),
            LuaParam(key: "level", value: .integer(4)),
            LuaParam(key: "safety", value: .number(0.5)),
        ])
        #expect(script.defaultParams.first { $0.key == "level" }?.value == .integer(2))
        #expect(try Fixture.play(script) == Array(repeating: 3, count: 10))
        let other = LuaStrategyLoader(overrides: ["someone_else": ["level": "9"]])
        #expect(try other.load(path: path).params == script.defaultParams)
    }

    @Test func overrideWithUnknownKeyOrBadValueFails() throws {
        let folder = try ScriptFolder()
        let path = try folder.write("fixed_level.lua", Self.good)
        let unknown = LuaStrategyLoader(overrides: ["fixed_level": ["levle": "4"]])
        #expect(Fixture.failure { _ = try unknown.load(path: path) }
            == "\(path): unknown parameter 'levle' in fixed_level.levle=4; parameters are enabled, label, level, safety")
        let notNumeric = LuaStrategyLoader(overrides: ["fixed_level": ["level": "two"]])
        #expect(Fixture.failure { _ = try notNumeric.load(path: path) } == "\(path): parameter fixed_level.level needs a number, not 'two'")
        let notBoolean = LuaStrategyLoader(overrides: ["fixed_level": ["enabled": "yes"]])
        #expect(Fixture.failure { _ = try notBoolean.load(path: path) } == "\(path): parameter fixed_level.enabled needs a boolean, not 'yes'")
        let notNumber = LuaStrategyLoader(overrides: ["fixed_level": ["safety": "lots"]])
        #expect(Fixture.failure { _ = try notNumber.load(path: path) } == "\(path): parameter fixed_level.safety needs a number, not 'lots'")
    }

    @Test func integerDefaultsTakeAnyNumberUnlessDeclaredInteger() throws {
        let folder = try ScriptFolder()
        let loose = try folder.write("loose.lua", "return { params = { reservoir_s = 5 }, choose = function(ctx) return 1 end }")
        let script = try LuaStrategyLoader(overrides: ["loose": ["reservoir_s": "5.5"]]).load(path: loose)
        #expect(script.params == [LuaParam(key: "reservoir_s", value: .number(5.5))])
        #expect(try LuaStrategyLoader(overrides: ["loose": ["reservoir_s": "6"]]).load(path: loose).params == [LuaParam(key: "reservoir_s", value: .integer(6))])

        let strict = try folder.write("strict.lua", """
            return { params = { horizon = 5, safety = 1 }, param_types = { horizon = "integer", safety = "number" },
                     choose = function(ctx) return 1 end }
            """)
        let declared = try LuaStrategyLoader(overrides: ["strict": ["safety": "0.5"]]).load(path: strict)
        #expect(declared.params.first { $0.key == "horizon" }?.integerOnly == true)
        #expect(declared.params.first { $0.key == "safety" }?.value == .number(0.5))
        #expect(Fixture.failure { _ = try LuaStrategyLoader(overrides: ["strict": ["horizon": "2.5"]]).load(path: strict) }
            == "\(strict): parameter strict.horizon needs an integer, not '2.5'")
    }

    @Test(arguments: [
        ("param_types = 3", "param_types must be a table, not a number value"),
        ("param_types = { nope = \"integer\" }", "param_types.nope names no entry of params"),
        ("param_types = { n = \"float\" }", "param_types.n must be \"integer\" or \"number\""),
        ("param_types = { x = \"integer\" }", "params.x is declared an integer but its default is not one"),
    ])
    func badParamTypesAreLoadErrors(declaration: String, message: String) throws {
        let folder = try ScriptFolder()
        let path = try folder.write("typed.lua", "return { params = { n = 1, x = 0.5 }, \(declaration), choose = function(ctx) return 1 end }")
        let failure = Fixture.failure { _ = try LuaStrategyLoader().load(path: path) } ?? ""
        #expect(failure.contains(message), "\(failure)")
    }

    @Test func parsesOverrideStrings() throws {
        let override = try LuaParamOverride(parsing: "robust.mpc.horizon=5")
        #expect(override == LuaParamOverride(strategyID: "robust.mpc", key: "horizon", value: "5"))
        #expect(Fixture.failure { _ = try LuaParamOverride(parsing: "horizon=5") } == "param: parameter override 'horizon=5' must look like id.key=value")
        #expect(Fixture.failure { _ = try LuaParamOverride(parsing: "a.b") } != nil)
        let grouped = try LuaParamOverride.group([override, LuaParamOverride(strategyID: "bba", key: "cushion", value: "10")])
        #expect(grouped == ["robust.mpc": ["horizon": "5"], "bba": ["cushion": "10"]])
        #expect(Fixture.failure { _ = try LuaParamOverride.group([override, override]) } == "param: parameter robust.mpc.horizon is given twice")
    }

    @Test func discoverySkipsTemplatesAnnotationsAndOtherFiles() throws {
        let folder = try ScriptFolder()
        try folder.write("zeta.lua", "return { choose = function() return 1 end }")
        try folder.write("alpha.lua", "return { name = 'Alpha', choose = function() return 2 end }")
        try folder.write("_template.lua", "this is not even Lua")
        try folder.write("types.lua", "---@meta\n---@class Foo\nlocal Foo = {}\n")
        try folder.write("named_meta.lua", "---@meta abrlab\n")
        try folder.write("notes.txt", "not a script")
        try folder.write(".hidden.lua", "not Lua either")
        let scripts = try LuaStrategyLoader().discover(folder: folder.path)
        #expect(scripts.map(\.id) == ["alpha", "zeta"])
        #expect(scripts.map(\.path) == [folder.path + "/alpha.lua", folder.path + "/zeta.lua"])
        #expect(LuaStrategyLoader.strategyID(forPath: "Strategies/robust_mpc.lua") == "robust_mpc")
        #expect(LuaStrategyLoader.isAnnotationFile(Array("---@meta\r\nlocal x".utf8)))
        #expect(!LuaStrategyLoader.isAnnotationFile(Array("---@metadata\n".utf8)))
        #expect(!LuaStrategyLoader.isAnnotationFile(Array("-- ---@meta\n".utf8)))
    }

    @Test func missingFileOrFolderIsAnInputError() throws {
        #expect(Fixture.failure { _ = try LuaStrategyLoader().load(path: "/nonexistent/x.lua") } == "/nonexistent/x.lua: no such file")
        #expect(Fixture.failure { _ = try LuaStrategyLoader().discover(folder: "/nonexistent") } == "/nonexistent: cannot list the folder")
    }
}
