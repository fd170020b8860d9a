import ABRLab
import ABRLabLua

extension StrategyResolver {
    /// Every parameter of each strategy with its effective value, its default and its declared
    /// type, by strategy id. Lua defaults come from reading the script again (its hash is in
    /// `run.json`), once per script however many rows it runs as; native ones from the
    /// unconfigured native descriptor.
    public func parameters(of descriptors: [StrategyDescriptor]) throws -> [String: [RunManifest.Parameter]] {
        var result: [String: [RunManifest.Parameter]] = [:]
        var defaultsBySource: [String: [String: StrategyParamValue]] = [:]
        for descriptor in descriptors {
            // The same strategy with no parameter set.
            let native = descriptor.source == "native"
                ? Self.native.first { $0.id == descriptor.id || descriptor.id.hasPrefix($0.id + "[") } : nil
            let source = native.map { "native " + $0.id } ?? descriptor.source
            let defaults: [String: StrategyParamValue]
            if let known = defaultsBySource[source] {
                defaults = known
            } else {
                let declared = descriptor.source == "native"
                    ? native?.params ?? []
                    : try Self.loader(limits: luaLimits).load(path: descriptor.source).descriptor().params
                defaults = Dictionary(declared.map { ($0.key, $0.value) }) { first, _ in first }
                defaultsBySource[source] = defaults
            }
            result[descriptor.id] = descriptor.params.map { RunManifest.Parameter(key: $0.key, value: $0.value, default: defaults[$0.key]) }
        }
        return result
    }

    /// Each strategy's rows (``expand(_:)``), in order. Two rows under one id are an error that
    /// names where each came from: a value holding `,`, `=` or `]` can make two settings'
    /// names alike, and a script's file name can be another strategy's row id.
    public func rows(of descriptors: [StrategyDescriptor]) throws -> [StrategyDescriptor] {
        var rows: [StrategyDescriptor] = []
        var owners: [String: Int] = [:]
        for (index, descriptor) in descriptors.enumerated() {
            for row in try expand(descriptor) {
                if let earlier = owners.updateValue(index, forKey: row.id) {
                    throw collision(row.id, earlier: descriptors[earlier], later: descriptor)
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// The error for two rows named `id`: at the later grid line that gave one, naming the other
    /// line or strategy.
    private func collision(_ id: String, earlier: StrategyDescriptor, later: StrategyDescriptor) -> InputError {
        // Both rows may come from one strategy's settings.
        let lines = (earlier.id == later.id ? [later] : [earlier, later]).map { descriptor in
            params.settings(for: descriptor.id).filter { $0.rowID == id }.compactMap { $0.gridRow?.line }
        }
        let sorted = lines.flatMap { $0 }.sorted()
        guard let grid = params.grid?.file, let line = sorted.last else {
            return InputError(setting: .param, "two rows are named '\(id)' (\(earlier.source) and \(later.source)); rename the script or change the value")
        }
        let owner = lines.last?.contains(line) == true ? later : earlier
        if let other = sorted.dropLast().last {
            return InputError(
                file: grid, line: line,
                "its \(owner.id) setting is named '\(id)', like line \(other)'s; a value holding ',', '=' or ']' can make two names alike; change one of them"
            )
        }
        let plain = owner.id == later.id ? earlier : later
        let name = plain.source == "native" ? "the native strategy \(plain.id)" : plain.source
        return InputError(file: grid, line: line, "its \(owner.id) setting is named '\(id)', the id of \(name); rename the script or change the value")
    }
}
