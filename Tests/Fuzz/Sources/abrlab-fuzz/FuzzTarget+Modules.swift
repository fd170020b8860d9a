import ABRLab
import ABRLabFormats
import ABRLabLua
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FuzzTarget {
    /// The Lua module loader: a folder tree from the input (``LuaFolderTree``: scripts, modules,
    /// models, links in and out of the folder, pipes, big sparse files) is built, `s/main.lua`
    /// loads as a strategy (the static scan of literal requires and models, the preload, the top
    /// level) and plays one session (requires by built names), and `s/qoe.lua`, if there is one,
    /// scores it. Properties: an error is one line naming the script or a file of its folder;
    /// every file recorded as read lies inside the folder once links are resolved, is a regular
    /// file within the caps, and has the recorded hash; planned files are among those read.
    static let luaModules = FuzzTarget(name: "lua-modules", dictionary: "lua-modules.dict") { bytes in
        let tree = LuaFolderTree(bytes)
        let root = LuaModulesRig.root
        tree.build(in: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("s").path
        let main = folder + "/main.lua"
        let script: LuaScript
        do throws(InputError) {
            script = try LuaStrategyLoader(limits: LuaSandboxRig.limits).load(path: main)
        } catch {
            LuaModulesRig.checkRejection(error, script: main, folder: folder)
            return
        }
        var qoe: LuaQoEModel?
        if FileManager.default.fileExists(atPath: folder + "/qoe.lua") {
            do throws(InputError) {
                qoe = try LuaQoEModel(path: folder + "/qoe.lua", limits: LuaSandboxRig.limits)
            } catch {
                LuaModulesRig.checkRejection(error, script: folder + "/qoe.lua", folder: folder)
            }
        }
        let plan = ExperimentPlan(
            strategies: [script.descriptor()], traces: [LuaSandboxRig.trace], video: LuaSandboxRig.video,
            emulator: LuaSandboxRig.emulator, qoe: .linear, seed: 7, customQoE: qoe
        )
        let outcome = plan.runSession(index: 0)
        if let message = outcome.error {
            FuzzCheck.expect(!message.contains(where: \.isNewline), "the error spans several lines: \(message)")
        }
        for files in [script.files] + (qoe.map { [$0.files] } ?? []) {
            LuaModulesRig.checkFiles(files, folder: folder)
        }
    }
}

/// The scratch folder and the checks of the module loader's target.
enum LuaModulesRig {
    /// One per process, so two fuzzing processes never share it.
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-fuzz-modules-\(getpid())")

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A refused script: one line naming it or a file of its folder (a module's line).
    static func checkRejection(_ error: InputError, script: String, folder: String) {
        FuzzCheck.expect(error.file == script || error.file.hasPrefix(folder + "/"), "error names '\(error.file)': \(error)")
        FuzzCheck.expect(!error.description.contains(where: \.isNewline), "error spans several lines: \(error)")
    }

    static func checkFiles(_ files: any ScriptResources, folder: String) {
        let loaded = files.loadedFiles
        guard let realFolder = realPath(folder) else { fatalError("property broken: the script folder \(folder) cannot be resolved") }
        for file in loaded {
            let real = realPath(file.path)
            FuzzCheck.expect(real.map { $0.hasPrefix(realFolder + "/") } == true, "\(file.path) was read but lies outside \(realFolder) (\(real ?? "unresolved"))")
            let limit = file.role == .module ? 4 << 20 : SafetensorsFile.maxFileBytes
            FuzzCheck.expect(file.byteCount <= limit, "\(file.path) was read with \(file.byteCount) bytes, over its cap")
            guard case .success(let bytes) = InputFile.regularFile(atPath: file.path, limit: limit) else {
                fatalError("property broken: \(file.path) was read but is not a regular file within its cap now")
            }
            FuzzCheck.expect(SHA256.hex(bytes) == file.sha256 && bytes.count == file.byteCount, "\(file.path): the recorded hash is not its bytes'")
        }
        let planned = Set(files.plannedFiles)
        FuzzCheck.expect(planned.isSubset(of: Set(loaded)), "planned files that were not read: \(planned.subtracting(loaded).map(\.path))")
    }
}
