import ABRLab
import ABRLabLua

extension StrategyResolver {
    /// Every parameter of each strategy with its effective value, its default and its declared
    /// type, by strategy id. Lua defaults come from reading the script again (its hash is in
    /// `run.json`), native ones from the unconfigured native descriptor.
    func parameters(of descriptors: [StrategyDescriptor]) throws -> [String: [RunManifest.Parameter]] {
        var result: [String: [RunManifest.Parameter]] = [:]
        for descriptor in descriptors {
            // The same strategy with no parameter set.
            let declared = descriptor.source == "native"
                ? Self.native.first { $0.id == descriptor.id || descriptor.id.hasPrefix($0.id + "[") }?.params ?? []
                : try Self.loader(limits: luaLimits).load(path: descriptor.source).descriptor().params
            let defaults = Dictionary(declared.map { ($0.key, $0.value) }) { first, _ in first }
            result[descriptor.id] = descriptor.params.map { RunManifest.Parameter(key: $0.key, value: $0.value, default: defaults[$0.key]) }
        }
        return result
    }
}
