import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Genet's agent from Lua: the script docs/strategies.md gives ("Genet from Lua"), with Genet's
/// simulation model loaded by `abrlab.model` as the file describes itself, plays every session
/// of Genet's harness on Pensieve's 142 test traces as the reference and the native `genet` do.
@Suite(.tags(.lua, .datasets, .reference), .selectedByTags, .needsDatasets("genet"), .needsDatasets("pensieve"))
struct GenetScriptTests {
    /// The first `lua` block after the "Genet from Lua" heading of docs/strategies.md.
    static func documentedScript() throws -> String {
        let text = try String(contentsOf: PackageRoot.file("docs/strategies.md"), encoding: .utf8)
        let section = try #require(text.range(of: "### Genet from Lua"))
        let start = try #require(text.range(of: "```lua\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```\n", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound]) + "\n"
    }

    /// A folder laid out as the docs say: the script, `lib/numpy_random.lua` and a copy of the model.
    static func folder() throws -> ScriptFolder {
        let folder = try ScriptFolder()
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: folder.path + "/models", withIntermediateDirectories: true)
        try manager.copyItem(atPath: "\(StrategyLibraryTests.folder)/lib/numpy_random.lua", toPath: folder.path + "/lib/numpy_random.lua")
        let model = Datasets.url("genet/\(GenetReferenceFixture.files["simulation"]!)").path
        try manager.copyItem(atPath: model, toPath: folder.path + "/models/genet.safetensors")
        try folder.write("genet_lua.lua", documentedScript())
        return folder
    }

    @Test(arguments: ["sampled", "argmax"])
    func theDocumentedScriptPlaysGenetsHarnessOnEveryTestTrace(action: String) throws {
        let folder = try Self.folder()
        let script = try LuaStrategyLoader(overrides: ["genet_lua": ["action": action, "first_level": "1"]]).load(path: folder.path + "/genet_lua.lua")
        let lua = script.descriptor()
        let native = try StrategyDescriptor.genet(defaultModelPath: folder.path + "/models/genet.safetensors").configured(["action": action, "first_level": "1"])
        let video = try PensieveScriptTests.video()
        let emulator = SessionEmulator(profile: .pensieve)
        let qoe = QoEModel(kind: .linear, rebufferPenalty: 10)
        #expect(GenetReferenceFixture.simulation.count == 142)
        for reference in GenetReferenceFixture.simulation {
            let trace = try TraceLoader.load(Datasets.url("pensieve/cooked_test_traces/\(reference.name)")).trace
            let a = try emulator.run(strategy: try lua.makeStrategy(), strategyID: "genet_lua", trace: trace, video: video)
            let b = try emulator.run(strategy: try native.makeStrategy(), strategyID: "genet", trace: trace, video: video)
            let levels = action == "argmax" ? reference.argmaxLevels : reference.sampledLevels
            let total = action == "argmax" ? reference.argmaxTotal : reference.sampledTotal
            #expect(a.segments.map { String($0.level) }.joined() == levels, "\(reference.name)")
            #expect(a.segments == b.segments, "\(reference.name)")
            #expect(abs(SessionMetrics(result: a, qoe: qoe, ladder: video.ladder).qoeTotal - total) < 1e-9, "\(reference.name)")
        }
    }

    @Test func theModelSaysItsOutputsAreStepsAndPensievesLevels() throws {
        let folder = try Self.folder()
        try FileManager.default.copyItem(atPath: "\(StrategyLibraryTests.folder)/models/pensieve.safetensors", toPath: folder.path + "/models/pensieve.safetensors")
        let script = try folder.load("shape.lua", """
            local genet = abrlab.model("models/genet.safetensors")
            local pensieve = abrlab.model("models/pensieve.safetensors")
            assert(genet.actions == "steps" and genet.rows == 6 and genet.columns == 6 and genet.outputs == 3)
            assert(pensieve.actions == "levels" and pensieve.columns == 8 and pensieve.outputs == 6)
            return { choose = function(ctx) return 1 end }
            """)
        #expect(script.id == "shape")
    }

    /// Pensieve's model in the Genet script's place: the script's check says why it cannot play.
    @Test func theScriptRefusesAModelOfLevels() throws {
        let folder = try Self.folder()
        try FileManager.default.removeItem(atPath: folder.path + "/models/genet.safetensors")
        try FileManager.default.copyItem(atPath: "\(StrategyLibraryTests.folder)/models/pensieve.safetensors", toPath: folder.path + "/models/genet.safetensors")
        let script = try LuaStrategyLoader().load(path: folder.path + "/genet_lua.lua")
        let setting = RunSetting(emulator: SessionEmulator(profile: .pensieve), video: try PensieveScriptTests.video())
        #expect(try script.descriptor().fit(setting) == .unfit(reason: "the model's outputs are not steps down, stay, up (net.actions is levels)"))
    }
}
