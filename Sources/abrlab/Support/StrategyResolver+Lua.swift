import ABRLab
import ABRLabLua

extension StrategyResolver {
    var luaLoader: LuaStrategyLoader {
        LuaStrategyLoader(limits: luaLimits, verbose: verbose, overrides: params)
    }

    func luaFolder(_ path: String) throws -> [StrategyDescriptor] {
        try luaLoader.discover(folder: path).map { $0.descriptor() }
    }

    func luaScript(_ path: String) throws -> StrategyDescriptor {
        guard path.hasSuffix(".lua") else {
            throw InputError(file: path, "not a Lua script (.lua), a folder of them, nor a native id (\(Self.nativeIDs))")
        }
        return try luaLoader.load(path: path).descriptor()
    }
}
