import ABRLab
import Foundation
import Synchronization

/// The files a script may use besides its own text — the modules it requires and the models it
/// loads — all inside its folder. Each is read once per script, by Swift, and shared by every
/// session on every thread, so all sessions of a run see the same file even if it changes.
final class LuaScriptResources: Sendable {
    /// The script's folder as messages name it: `Strategies` for `Strategies/x.lua`, empty for `x.lua`.
    let folder: String
    private let modules = Mutex<[String: Result<LuaModuleSource, InputError>]>([:])
    private let models = Mutex<[String: Result<ActorNetwork, InputError>]>([:])

    /// Module files larger than this are refused before they are read.
    static let maxModuleBytes = 4 << 20

    init(scriptPath: String) {
        folder = Self.folder(ofScript: scriptPath)
    }

    /// `Strategies` for `Strategies/x.lua`, `/` for `/x.lua`, empty for `x.lua`.
    static func folder(ofScript path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A file of the folder as messages name it.
    func path(_ relative: String) -> String {
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
        Self.cached(name, in: modules) { () throws(InputError) in try readModule(name) }
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

    /// The network in the model file at `relativePath`, read on first use; a failure is remembered too.
    func model(at relativePath: String) -> Result<ActorNetwork, InputError> {
        Self.cached(relativePath, in: models) { () throws(InputError) in try readModel(relativePath) }
    }

    /// The files of modules and models read successfully so far, as paths, sorted.
    var filesRead: [String] {
        let moduleFiles = modules.withLock { cache in
            cache.compactMap { name, result in (try? result.get()) != nil ? Self.moduleLabel(name).map(path) : nil }
        }
        let modelFiles = models.withLock { cache in
            cache.compactMap { relative, result in (try? result.get()) != nil ? path(relative) : nil }
        }
        return (moduleFiles + modelFiles).sorted()
    }

    /// Budget units one forward pass of `network` costs: fixed per model, about one per 16
    /// multiply-adds, at least 1000.
    static func forwardCost(_ network: ActorNetwork) -> Int {
        max(1000, network.multiplyAdds / 16)
    }

    private func readModel(_ relativePath: String) throws(InputError) -> ActorNetwork {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !parts.contains(".."), !parts.contains(""),
              !relativePath.contains("\\"), !relativePath.utf8.contains(0) else {
            throw InputError(file: "", "abrlab.model: '\(relativePath)' is not a path inside the script's folder (relative, no '..')")
        }
        do {
            return try ActorNetwork(contentsOf: path(relativePath))
        } catch {
            throw InputError(file: "", "abrlab.model: \(error.description)")
        }
    }

    private func readModule(_ name: String) throws(InputError) -> LuaModuleSource {
        guard let label = Self.moduleLabel(name) else {
            throw InputError(file: "", "module name '\(name)' is not allowed")
        }
        let file = path(label)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw InputError(file: "", "module '\(name)' not found: no file \(file)")
        }
        guard !isDirectory.boolValue else { throw InputError(file: "", "module '\(name)': \(file) is a folder, not a file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size <= Self.maxModuleBytes else {
            throw InputError(file: "", "module '\(name)': \(file) is larger than \(Self.maxModuleBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw InputError(file: "", "module '\(name)': cannot read \(file)")
        }
        return LuaModuleSource(label: label, source: LuaScript.prefixed([UInt8](data)))
    }
}
