import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The files shipped for script authors: the template works, the annotation file is valid Lua
/// and discovery leaves both out.
@Suite(.tags(.lua), .selectedByTags) struct LuaRepositoryFilesTests {
    static let strategies = PackageRoot.file("Strategies").path

    @Test func templatePicksTheHighestLevelBelowTheLastThroughput() throws {
        let script = try LuaStrategyLoader().load(path: Self.strategies + "/_template.lua")
        #expect(script.id == "_template")
        #expect(script.form == .session)
        #expect(script.params == [LuaParam(key: "safety", value: .number(0.9)), LuaParam(key: "start_level", value: .integer(1), integerOnly: true)])
        var strategy = script.makeStrategy()
        let video = try Fixture.video()
        #expect(try Fixture.play(&strategy, video: video, segments: 3, throughputKbps: 2000) == [0, 2, 2])
        #expect(try Fixture.play(&strategy, video: video, segments: 2, throughputKbps: 100) == [0, 0])
        #expect(try Fixture.play(&strategy, video: video, segments: 2, throughputKbps: 10_000) == [0, 5])
    }

    @Test func annotationFileIsValidLuaAndMarkedAsMeta() throws {
        let path = Self.strategies + "/abrlab.d.lua"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(LuaStrategyLoader.isAnnotationFile(Array(text.utf8)))
        #expect(try LuaEngine().evaluateNumber(text + "\nreturn 0", sourceName: "=abrlab.d.lua") == 0)
    }

    @Test func discoveryLeavesTemplateAndAnnotationsOut() throws {
        let folder = try ScriptFolder()
        for name in ["_template.lua", "abrlab.d.lua"] {
            try folder.write(name, String(contentsOfFile: Self.strategies + "/" + name, encoding: .utf8))
        }
        try folder.write("mine.lua", String(contentsOfFile: Self.strategies + "/_template.lua", encoding: .utf8))
        #expect(try LuaStrategyLoader().discover(folder: folder.path).map(\.id) == ["mine"])
    }
}
