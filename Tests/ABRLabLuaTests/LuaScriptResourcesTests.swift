import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
import Testing
import TestSupport

/// The files a script reads besides its text: known before any session where the text names
/// them, recorded with the hash of the bytes that ran, and never read from outside its folder.
@Suite(.tags(.lua), .selectedByTags) struct LuaScriptResourcesTests {
    static let loader = LuaRequireTests.loader

    static func script(_ top: String, choose body: String = "return 1") -> String {
        LuaRequireTests.script(top, choose: body)
    }

    static func sparseFile(_ path: String, bytes: UInt64) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    @Test func literallyNamedFilesArePlannedAndBuiltNamesAreRecordedWhenRead() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try folder.write("lib/a.lua", "-- require('lib.commented') is no reference\nreturn require('lib.c')")
        try folder.write("lib/b.lua", "return 2")
        try folder.write("lib/c.lua", "return 3")
        try LuaModelTests.writeModel(folder, "genet.safetensors", LuaModelTests.genetLike())
        // Nothing here runs at load time: lib.a and the model are found in the text, lib.c in lib.a's.
        let script = try folder.load("main.lua", Self.script("", choose: """
            if ctx.segment_index > 1 then
                assert(require('lib.a') == 3 and require('lib.' .. 'b') == 2)
                assert(abrlab.model('models/genet.safetensors').outputs == 3)
              end
              return 1
            """), loader: Self.loader)
        let planned = ["lib/a.lua", "lib/c.lua", "models/genet.safetensors"].map { folder.path + "/" + $0 }
        #expect(script.files.plannedFiles.map(\.path) == planned)
        #expect(script.files.plannedFiles.map(\.role) == [.module, .module, .model])
        #expect(script.files.loadedFiles.map(\.path) == planned)
        #expect(try Fixture.play(script, segments: 3) == [0, 0, 0])
        #expect(script.files.plannedFiles.map(\.path) == planned)
        #expect(script.files.loadedFiles.map(\.path) == [planned[0], folder.path + "/lib/b.lua", planned[1], planned[2]])
    }

    @Test func theHashRecordedIsTheHashOfTheBytesThatRan() throws {
        let folder = try ScriptFolder()
        try folder.write("level.lua", "return 2")
        let script = try folder.load("main.lua", Self.script("", choose: "return require('level')"), loader: Self.loader)
        try folder.write("level.lua", "return 3 -- edited after the script loaded")
        #expect(try Fixture.play(script, segments: 2) == [1, 1])
        let recorded = try #require(script.files.loadedFiles.first)
        #expect(recorded.sha256 == SHA256.hex(Array("return 2".utf8)) && recorded.byteCount == 8)
        // A resumed run reads what is recorded as a session would: the same bytes, from the cache.
        #expect(try script.files.load(recorded).get() == recorded)
    }

    @Test func linksMayPointInsideTheFolderButNeverOut() throws {
        let outside = try ScriptFolder()
        try outside.write("evil.lua", "return 'escaped'")
        try LuaModelTests.writeModel(outside, "evil.safetensors", LuaModelTests.genetLike())
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/models", withIntermediateDirectories: true)
        try folder.write("real.lua", "return 'inside'")
        let links = [
            ("lib/alias.lua", "../real.lua"), ("lib/evil.lua", outside.path + "/evil.lua"), ("out", outside.path),
            ("zero.lua", "/dev/zero"), ("models/evil.safetensors", outside.path + "/models/evil.safetensors"),
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/" + name, withDestinationPath: target)
        }
        let alias = try folder.load("alias.lua", Self.script("assert(require('lib.alias') == 'inside')"), loader: Self.loader)
        #expect(try Fixture.play(alias, segments: 1) == [0])

        let realOutside = Self.realPath(outside.path)
        let cases: [(String, String)] = [
            ("require('lib.evil')", "module 'lib.evil': \(folder.path)/lib/evil.lua leads to \(realOutside)/evil.lua, outside the script's folder \(folder.path); modules must lie inside it"),
            ("require('out.evil')", "module 'out.evil': \(folder.path)/out/evil.lua leads to \(realOutside)/evil.lua, outside the script's folder \(folder.path); modules must lie inside it"),
            ("require('zero')", "module 'zero': \(folder.path)/zero.lua leads to /dev/zero, outside the script's folder \(folder.path); modules must lie inside it"),
            ("abrlab.model('models/evil.safetensors')", "abrlab.model: \(folder.path)/models/evil.safetensors leads to \(realOutside)/models/evil.safetensors, outside the script's folder \(folder.path); models must lie inside it"),
            ("abrlab.model('out/models/evil.safetensors')", "abrlab.model: \(folder.path)/out/models/evil.safetensors leads to \(realOutside)/models/evil.safetensors, outside the script's folder \(folder.path); models must lie inside it"),
        ]
        for (call, expected) in cases {
            let file = try folder.write("user.lua", "\nlocal x = \(call)\nreturn { choose = function() return 1 end }\n")
            #expect(Fixture.failure { _ = try Self.loader.load(path: file) } == "\(file):2: \(expected)")
        }
        // A name only running code knows meets the same check when a session asks for it.
        let late = try folder.load("late.lua", Self.script("", choose: "return require('lib.' .. 'evil')"), loader: Self.loader)
        #expect(Fixture.failure { _ = try Fixture.play(late, segments: 1) } == "\(late.path):3: \(cases[0].1)")
    }

    /// The caps apply to the file a link leads to, which is checked before a byte is read, and
    /// a FIFO is refused without waiting for a writer.
    @Test func capsApplyToTheLinksTargetAndNothingBigIsRead() throws {
        let folder = try ScriptFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/lib", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/models", withIntermediateDirectories: true)
        try Self.sparseFile(folder.path + "/big.lua", bytes: 5 << 20)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/lib/small.lua", withDestinationPath: "../big.lua")
        try Self.sparseFile(folder.path + "/models/huge.bin", bytes: 1 << 30)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/models/small.safetensors", withDestinationPath: "huge.bin")
        #expect(mkfifo(folder.path + "/fifo.lua", 0o600) == 0)
        let cases: [(String, String)] = [
            ("require('lib.small')", "module 'lib.small': \(folder.path)/lib/small.lua is larger than 4 MiB (5 MiB)"),
            ("require('fifo')", "module 'fifo': \(folder.path)/fifo.lua is not a regular file"),
            ("abrlab.model('models/small.safetensors')", "abrlab.model: \(folder.path)/models/small.safetensors: model files are limited to 64 MiB; this file is 1 GiB"),
        ]
        for (call, expected) in cases {
            let file = try folder.write("user.lua", "\nlocal x = \(call)\nreturn { choose = function() return 1 end }\n")
            #expect(Fixture.failure { _ = try Self.loader.load(path: file) } == "\(file):2: \(expected)")
        }
    }
}
