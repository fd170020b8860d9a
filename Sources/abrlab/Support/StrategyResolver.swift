import ABRLab
import ABRLabLua
import Foundation

/// Turns `--strategies` arguments into strategy descriptors: native ids, Lua scripts and
/// folders of scripts, in the order given (a folder's scripts in id order).
struct StrategyResolver {
    /// Native strategies by id.
    static let native: [StrategyDescriptor] = [.conservative, .bufferBased, .robustMPC]
    static var nativeIDs: String { native.map(\.id).joined(separator: ", ") }

    /// `--param` values by strategy id; a sweep turns one strategy into several rows.
    var params: ParamAssignments
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
                descriptors.append(native)
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw InputError(file: argument, "no such strategy: not a native id (\(Self.nativeIDs)) nor a Lua file or folder")
            }
            if isDirectory.boolValue {
                descriptors += try luaFolder(argument).filter { !explicitNative.contains($0.id) }.flatMap(expand)
            } else {
                descriptors += try expand(luaScript(argument))
            }
        }
        var seen = Set<String>()
        for descriptor in descriptors where !seen.insert(descriptor.id).inserted {
            throw InputError(file: descriptor.source, "strategy id '\(descriptor.id)' appears twice")
        }
        for id in params.strategyIDs {
            guard let descriptor = descriptors.first(where: { $0.id == id || $0.id.hasPrefix(id + "[") }) else {
                throw InputError(file: "--param", "no strategy with id '\(id)' is being run")
            }
            if descriptor.source == "native" {
                throw InputError(file: "--param", "'\(id)' is a native strategy and takes no parameters")
            }
        }
        return descriptors
    }

    /// Resolves one strategy for commands that play single sessions, where a sweep has no place.
    func resolveOne(_ argument: String) throws -> StrategyDescriptor {
        let descriptors = try resolve([argument])
        guard descriptors.count == 1 else {
            throw InputError(file: "--param", "a parameter sweep runs several settings; use abrlab compare for it")
        }
        return descriptors[0]
    }
}
