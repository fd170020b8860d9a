import ABRLab
import ABRLabLua

extension StrategyResolver {
    /// Every parameter of each Lua strategy with its effective value and declared type, by
    /// strategy id; native strategies take none. The scripts are read again from their sources
    /// (whose hashes `run.json` records) with the same overrides.
    func parameters(of descriptors: [StrategyDescriptor]) throws -> [String: [RunManifest.Parameter]] {
        var result: [String: [RunManifest.Parameter]] = [:]
        for descriptor in descriptors where descriptor.source != "native" {
            let script = try luaLoader.load(path: descriptor.source)
            result[descriptor.id] = zip(script.params, script.defaultParams).map { param, declared in
                RunManifest.Parameter(param, default: declared.value)
            }
        }
        return result
    }
}
