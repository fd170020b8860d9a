import ABRLab
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// Ids relative to the strategies root, and discovery of a whole tree of folders.
@Suite(.tags(.lua), .selectedByTags) struct LuaStrategyLoaderIDsTests {
    static let choose = "return { choose = function(ctx) return 1 end }\n"

    /// A root with a script of its own, one in a sub-folder, modules in `lib/`, and folders that
    /// hold no strategies.
    static func tree() throws -> ScriptFolder {
        let folder = try ScriptFolder()
        for sub in ["sabre/lib", "_drafts", ".git", "live/deeper"] {
            try FileManager.default.createDirectory(atPath: folder.path + "/" + sub, withIntermediateDirectories: true)
        }
        try folder.write("bola.lua", choose)
        try folder.write("sabre/bola.lua", choose)
        try folder.write("sabre/lib/helper.lua", choose)
        try folder.write("_drafts/idea.lua", choose)
        try folder.write(".git/hook.lua", choose)
        try folder.write("live/deeper/fast.lua", choose)
        // A link back to the root is entered once.
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/live/loop", withDestinationPath: folder.path)
        return folder
    }

    @Test func aTreeListsItsStrategiesWithIdsUnderTheRoot() throws {
        let folder = try Self.tree()
        let loader = LuaStrategyLoader(root: folder.path)
        let scripts = try loader.discoverTree(folder: folder.path)
        #expect(scripts.map(\.id) == ["bola", "sabre/bola", "live/deeper/fast"])
        // Without a root every script is known by its file name.
        #expect(try LuaStrategyLoader().discoverTree(folder: folder.path).map(\.id) == ["bola", "bola", "fast"])
        // Naming a sub-folder keeps the ids the root gives.
        #expect(try loader.discover(folder: folder.path + "/sabre").map(\.id) == ["sabre/bola"])
    }

    @Test(arguments: [
        ("sabre/bola.lua", "sabre/bola"), ("./sabre/../sabre/bola.lua", "sabre/bola"), ("bola.lua", "bola"),
        ("live/loop/sabre/bola.lua", "sabre/bola"),
    ])
    func anIdDoesNotDependOnHowThePathIsWritten(relative: String, id: String) throws {
        let folder = try Self.tree()
        let loader = LuaStrategyLoader(root: folder.path)
        #expect(loader.id(forPath: folder.path + "/" + relative) == id)
        #expect(try loader.load(path: folder.path + "/" + relative).id == id)
    }

    @Test func aScriptOutsideTheRootKeepsItsFileName() throws {
        let root = try Self.tree()
        let elsewhere = try ScriptFolder()
        let path = try elsewhere.write("mine.lua", Self.choose)
        #expect(LuaStrategyLoader(root: root.path).id(forPath: path) == "mine")
        #expect(LuaStrategyLoader(root: root.path).id(forPath: root.path + "-other/x.lua") == "x")
    }
}
