import ABRLab
import ABRLabLua

extension StrategyResolver {
    var luaLoader: LuaStrategyLoader {
        LuaStrategyLoader(limits: luaLimits, verbose: verbose)
    }

    /// The folder's scripts by id, parameters not yet applied.
    func luaFolder(_ path: String) throws -> [LuaScript] {
        try luaLoader.discover(folder: path)
    }

    func luaScript(_ path: String) throws -> LuaScript {
        guard path.hasSuffix(".lua") else {
            throw InputError(file: path, "not a Lua script (.lua), a folder of them, nor a native id (\(Self.nativeIDs))")
        }
        return try luaLoader.load(path: path)
    }

    /// One descriptor per parameter setting of the script, in the sweep's order.
    func expand(_ script: LuaScript) throws -> [StrategyDescriptor] {
        try params.settings(for: script.id).map { setting in
            try script.overriding(setting.values).descriptor(id: setting.rowID)
        }
    }
}
