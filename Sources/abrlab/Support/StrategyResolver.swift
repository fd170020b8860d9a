import ABRLab
import ABRLabLua
import Foundation

/// Turns `--strategies` arguments into strategy descriptors: native ids, Lua scripts and
/// folders of scripts, in the order given (a folder's scripts in id order).
struct StrategyResolver {
    /// Native strategies by id.
    static let native: [StrategyDescriptor] = [
        .conservative, .bufferBased, .robustMPC, .pensieve(defaultModelPath: Defaults.pensieveModel),
    ]
    static var nativeIDs: String { native.map(\.id).joined(separator: ", ") }

    /// `--param` overrides by strategy id.
    var params: [String: [String: String]]
    var luaLimits: LuaLimits = .default
    /// Tracebacks in Lua errors and `print` from scripts.
    var verbose = false

    /// A native id named explicitly wins over a script of the same id found in a folder (the
    /// default run names `Strategies/` and `conservative`, and `conservative.lua` plays exactly
    /// like the native one); naming both explicitly is an error.
    func resolve(_ arguments: [String]) throws -> [StrategyDescriptor] {
        let explicitNative = Set(arguments.filter { id in Self.native.contains { $0.id == id } })
        var descriptors: [StrategyDescriptor] = []
        for argument in arguments {
            if let native = Self.native.first(where: { $0.id == argument }) {
                // Configured even without --param, so a native's files (a model) are checked before any session runs.
                descriptors.append(try native.configured(params[native.id] ?? [:]))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw InputError(file: argument, "no such strategy: not a native id (\(Self.nativeIDs)) nor a Lua file or folder")
            }
            if isDirectory.boolValue {
                descriptors += try luaFolder(argument).filter { !explicitNative.contains($0.id) }
            } else {
                descriptors.append(try luaScript(argument))
            }
        }
        var seen = Set<String>()
        for descriptor in descriptors where !seen.insert(descriptor.id).inserted {
            throw InputError(file: descriptor.source, "strategy id '\(descriptor.id)' appears twice")
        }
        for id in params.keys.sorted() {
            guard descriptors.contains(where: { $0.id == id }) else {
                throw InputError(file: "--param", "no strategy with id '\(id)' is being run")
            }
        }
        return descriptors
    }
}
