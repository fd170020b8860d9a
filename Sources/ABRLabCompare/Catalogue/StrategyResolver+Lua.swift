import ABRLab
import ABRLabDatasets
import ABRLabLua

extension StrategyResolver {
    /// Loads scripts with their defaults; `--param` values are applied afterwards, one
    /// descriptor per setting (see `expand`). Scripts under `Strategies/` get ids relative to
    /// it (`sabre/bola`), whether named by id, file or folder.
    public var luaLoader: LuaStrategyLoader {
        Self.loader(limits: luaLimits, verbose: verbose)
    }

    public static func loader(limits: LuaLimits = .default, verbose: Bool = false) -> LuaStrategyLoader {
        LuaStrategyLoader(limits: limits, verbose: verbose, root: Defaults.strategiesFolder)
    }

    public func luaFolder(_ path: String) throws -> [StrategyDescriptor] {
        try luaLoader.discover(folder: path).map { $0.descriptor() }
    }

    /// The scripts in `path` and its sub-folders (not `lib/`), as `strategies list` shows them.
    public func luaTree(_ path: String) throws -> [StrategyDescriptor] {
        try luaLoader.discoverTree(folder: path).map { $0.descriptor() }
    }

    public func luaScript(_ path: String) throws -> StrategyDescriptor {
        guard path.hasSuffix(".lua") else {
            throw InputError(file: path, "not a Lua script (.lua), a folder of them, nor a native id (\(Self.nativeIDs))")
        }
        return try luaLoader.load(path: path).descriptor()
    }

    /// One descriptor per parameter setting of `descriptor`, in the sweep's order, each named by
    /// its row id; native strategies and scripts alike.
    /// Two settings the strategy sees as the same values (`gp=3,03`, `5,5.0`) are an error: they
    /// would run as two rows of identical sessions.
    public func expand(_ descriptor: StrategyDescriptor) throws -> [StrategyDescriptor] {
        let rows = try configuredRows(descriptor)
        var seen: [[StrategyParamValue]: String] = [:]
        for row in rows {
            let values = row.params.map(\.value.canonical)
            if let earlier = seen.updateValue(row.id, forKey: values) {
                throw InputError(setting: .param, "\(earlier) and \(row.id) give \(descriptor.id) the same values; list each value once")
            }
        }
        return rows
    }

    private func configuredRows(_ descriptor: StrategyDescriptor) throws -> [StrategyDescriptor] {
        try params.settings(for: descriptor.id).map { setting throws(InputError) in
            // A grid row's own values first, so a bad one is reported at its file and line;
            // that is the row itself when no --param value joins them.
            if let row = setting.gridRow, let file = params.grid?.file {
                let configured: StrategyDescriptor
                do throws(InputError) { configured = try descriptor.configured(row.values) } catch {
                    throw error.about(.file(file), line: row.line)
                }
                if setting.values == row.values { return configured.renamed(setting.rowID) }
            }
            return try descriptor.configured(setting.values).renamed(setting.rowID)
        }
    }
}
