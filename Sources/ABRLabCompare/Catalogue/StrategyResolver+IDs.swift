import ABRLab
import ABRLabDatasets
import ABRLabLua
import Foundation

/// How one `--strategies` argument becomes strategies: a native id, a Lua file or folder, or
/// the id of a script in the default `Strategies/` folder, as `abrlab strategies list` shows.
extension StrategyResolver {
    /// Reports scripts that share a native strategy's id, one line per script.
    public struct ShadowReport {
        public enum Case {
            /// The script's id names the native strategy wherever ids are taken (`strategies list`).
            case shadowed
            /// A folder's script was left out because the native id was named too.
            case skipped
            /// A folder's script runs under the native id, which was not named.
            case replacing
        }

        public private(set) var warnings: [InputWarning] = []
        private var reported: Set<String> = []

        public init() {}

        public mutating func report(path: String, nativeID: String, _ kind: Case) {
            guard reported.insert(path).inserted else { return }
            let what = switch kind {
            case .shadowed: "is shadowed by the native strategy '\(nativeID)', which the id '\(nativeID)' runs; name the file to run the script"
            case .skipped: "is skipped: the native strategy '\(nativeID)' has the same id and runs instead; name the file, not '\(nativeID)', to run the script"
            case .replacing: "has the id of the native strategy '\(nativeID)'; results under '\(nativeID)' are this script's"
            }
            warnings.append(InputWarning(file: path, what))
        }
    }

    /// The id results will carry for `argument`: a native id or script id as given, a script
    /// path's id (its path under `Strategies/`, else its file name, without `.lua`). A sweep
    /// row's settings stay as given: `sabre/bola[gp=3]`.
    public static func strategyID(forArgument argument: String) -> String {
        let strategy = String(argument.prefix { $0 != "[" })
        if native.contains(where: { $0.id == strategy }) || defaultScriptPath(id: strategy) != nil { return argument }
        return loader().id(forPath: strategy) + argument.dropFirst(strategy.count)
    }

    /// The script in the default folder whose id is `id`, if there is one: `bola`, or
    /// `sabre/bola` for a script in a sub-folder. Names starting with `_` and `lib/` folders
    /// (modules) are no strategy's.
    public static func defaultScriptPath(id: String) -> String? {
        let names = id.split(separator: "/", omittingEmptySubsequences: false)
        let valid = names.allSatisfy { name in
            !name.isEmpty && !name.hasPrefix("_") && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        }
        guard valid, !names.dropLast().contains(Substring(LuaStrategyLoader.moduleFolderName)) else { return nil }
        let path = Defaults.strategiesFolder + "/" + id + ".lua"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return path
    }

    public func descriptors(
        for argument: String, explicitNative: Set<String>, shadowing: inout ShadowReport
    ) throws -> [StrategyDescriptor] {
        // A same-id script in Strategies/ is not reported here, as the shipped conservative.lua
        // would make every run that names `conservative` warn; `strategies list` marks it.
        // --param values (sweeps included) are applied afterwards, one descriptor per setting
        // (`expand`), each configured even without --param, so a native's files (a model) are
        // checked before any session runs, and a default is read only when no value replaces it.
        if let native = Self.native.first(where: { $0.id == argument }) { return [native] }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return [try luaScript(argument)] }
            var scripts: [StrategyDescriptor] = []
            for script in try luaFolder(argument) {
                guard Self.native.contains(where: { $0.id == script.id }) else {
                    scripts.append(script)
                    continue
                }
                let skipped = explicitNative.contains(script.id)
                shadowing.report(path: script.source, nativeID: script.id, skipped ? .skipped : .replacing)
                if !skipped { scripts.append(script) }
            }
            return scripts
        }
        if let script = Self.defaultScriptPath(id: argument) { return [try luaScript(script)] }
        throw InputError(
            file: argument,
            "no such strategy: not a native id (\(Self.nativeIDs)), the id of a script in \(Defaults.strategiesFolder)/ "
                + "(see abrlab strategies list), nor a Lua file or folder"
        )
    }
}
