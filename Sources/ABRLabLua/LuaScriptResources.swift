import ABRLab
import Foundation
import Synchronization

/// The files a script may use besides its own text — the modules it requires and the models it
/// loads — all inside its folder. Each is read once per script, by Swift, and shared by every
/// session on every thread, so all sessions of a run see the same file even if it changes, and
/// the hash recorded for a file is the hash of the bytes that ran.
///
/// Files the script names literally are read when it loads (``preload(referencesIn:)``), with
/// those read while its top level first runs: together the planned files, known before any
/// session runs. A file whose name only running code knows is read when a session first asks
/// for it, and recorded then.
final class LuaScriptResources: ScriptResources {
    /// The script whose files these are: what an error about one of them names.
    let script: String
    /// The script's folder as messages name it: `Strategies` for `Strategies/x.lua`, empty for `x.lua`.
    let folder: String
    /// The folder's real path (links resolved), which every file read must lie inside.
    let realFolder: Result<String, InputFile.ReadFailure>
    private let modules = Mutex<[String: Result<LuaModuleSource, InputError>]>([:])
    private let models = Mutex<[String: Result<ActorNetwork, InputError>]>([:])
    /// Every file read successfully, by role and name.
    private let files = Mutex<[LuaReference: LoadedFile]>([:])
    /// The files read by the time the script finished loading; `nil` until then.
    private let planned = Mutex<[LoadedFile]?>(nil)

    /// Module files larger than this are refused before they are read.
    static let maxModuleBytes = 4 << 20
    /// References followed from one script and its modules when it loads; past this many, the
    /// rest are read when a session asks for them.
    static let maxPreloads = 256

    init(scriptPath: String) {
        script = scriptPath
        folder = Self.folder(ofScript: scriptPath)
        realFolder = Self.realPath(folder.isEmpty ? "." : folder)
    }

    /// `Strategies` for `Strategies/x.lua`, `/` for `/x.lua`, empty for `x.lua`.
    static func folder(ofScript path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A file of the folder as messages name it.
    func path(_ relative: String) -> String {
        Self.path(relative, inFolder: folder)
    }

    static func path(_ relative: String, inFolder folder: String) -> String {
        switch folder {
        case "": relative
        case "/": "/" + relative
        default: folder + "/" + relative
        }
    }

    /// The file of module `name`: dots separate folders, `.lua` is added (`lib.x` → `lib/x.lua`).
    static func moduleLabel(_ name: String) -> String? {
        guard isModuleName(name) else { return nil }
        return name.replacingOccurrences(of: ".", with: "/") + ".lua"
    }

    /// Names of letters, digits and `_` joined by single dots; no `/`, no `..`, nothing absolute.
    static func isModuleName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maxModuleNameLength else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
            }
        }
    }

    static let maxModuleNameLength = 48

    /// The module's text, read on first use; a failure is remembered too.
    func module(named name: String) -> Result<LuaModuleSource, InputError> {
        Self.cached(name, in: modules) { () throws(InputError) in
            let (module, file) = try readModule(name)
            record(file, as: .module(name))
            return module
        }
    }

    /// The network in the model file at `relativePath`, read on first use; a failure is remembered too.
    func model(at relativePath: String) -> Result<ActorNetwork, InputError> {
        Self.cached(relativePath, in: models) { () throws(InputError) in
            let (network, file) = try readModel(relativePath)
            record(file, as: .model(relativePath))
            return network
        }
    }

    /// The value for `key` in `cache`, made by `make` on first use; a failure is kept too, so
    /// every session sees the same outcome.
    private static func cached<Value>(
        _ key: String, in cache: borrowing Mutex<[String: Result<Value, InputError>]>, _ make: () throws(InputError) -> Value
    ) -> Result<Value, InputError> {
        cache.withLock { entries in
            if let entry = entries[key] { return entry }
            let result: Result<Value, InputError>
            do throws(InputError) {
                result = .success(try make())
            } catch {
                result = .failure(error)
            }
            entries[key] = result
            return result
        }
    }

    private func record(_ file: LoadedFile, as reference: LuaReference) {
        files.withLock { $0[reference] = file }
    }

    /// Reads every module and model `source` names literally, and those its modules name, so
    /// they are known (and hashed) before any session runs. What fails to read is remembered
    /// and reported where a session asks for it, as if read then.
    func preload(referencesIn source: [UInt8]) {
        var pending = LuaReferenceScanner.references(in: source, limit: Self.maxPreloads)
        var followed: Set<LuaReference> = []
        var next = 0
        while next < pending.count, followed.count < Self.maxPreloads {
            let reference = pending[next]
            next += 1
            guard followed.insert(reference).inserted else { continue }
            switch reference {
            case .module(let name):
                // Names require refuses never reach the host.
                guard Self.isModuleName(name), case .success(let module) = module(named: name) else { continue }
                pending += LuaReferenceScanner.references(in: module.text, limit: Self.maxPreloads)
            case .model(let relativePath):
                _ = model(at: relativePath)
            }
        }
    }

    /// Marks the files read so far as the planned ones: the script has finished loading.
    func seal() {
        let files = loadedFiles
        planned.withLock { $0 = files }
    }

    var plannedFiles: [LoadedFile] {
        planned.withLock { $0 } ?? loadedFiles
    }

    var loadedFiles: [LoadedFile] {
        files.withLock { Array($0.values) }.sorted { ($0.path, $0.role.rawValue, $0.name) < ($1.path, $1.role.rawValue, $1.name) }
    }

    func load(_ file: LoadedFile) -> Result<LoadedFile, InputError> {
        let reference: LuaReference
        switch file.role {
        case .module:
            reference = .module(file.name)
            if case .failure(let error) = module(named: file.name) { return .failure(error) }
        case .model:
            reference = .model(file.name)
            if case .failure(let error) = model(at: file.name) { return .failure(error) }
        case .file:
            return .failure(InputError(file: file.path, "is not a module or model of a script"))
        }
        guard let loaded = files.withLock({ $0[reference] }) else {
            return .failure(InputError(file: file.path, "cannot be read"))
        }
        return .success(loaded)
    }

    /// Budget units one forward pass of `network` costs: fixed per model, about one per 16
    /// multiply-adds, at least 1000.
    static func forwardCost(_ network: ActorNetwork) -> Int {
        max(1000, network.multiplyAdds / 16)
    }
}
