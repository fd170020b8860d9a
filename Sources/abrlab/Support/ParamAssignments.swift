import ABRLab
import ABRLabLua

/// `--param` values by strategy id. `id.key=value` sets one value; `id.key=a,b,c` sweeps the
/// key over several values, and every combination of a strategy's swept keys (their cartesian
/// product) runs as its own row, e.g. `bola[gp=3]`.
struct ParamAssignments {
    /// One combination of values for one strategy, and the id its rows carry.
    struct Setting: Equatable {
        /// `id` when nothing is swept, else `id[key=value,...]` with the swept keys in name order.
        let rowID: String
        /// Every key set for the strategy, swept or not.
        let values: [String: String]
    }

    /// Keys in name order with their values in the order given.
    private(set) var keys: [String: [(key: String, values: [String])]] = [:]

    init() {}

    /// One value per strategy id and key, as code sets them: nothing is swept, commas are kept.
    init(_ values: [String: [String: String]]) {
        keys = values.mapValues { entries in entries.keys.sorted().map { ($0, [entries[$0] ?? ""]) } }
    }

    /// Reads `--param` arguments. A key given twice, an empty value in a list or a value listed
    /// twice is an error.
    init(parsing params: [String]) throws(InputError) {
        var grouped: [String: [String: [String]]] = [:]
        for param in params {
            let parsed: LuaParamOverride
            do { parsed = try LuaParamOverride(parsing: param) } catch {
                throw InputError(file: "--param", "'\(param)' is not of the form id.key=value")
            }
            let (id, key, text) = (parsed.strategyID, parsed.key, parsed.value)
            guard grouped[id]?[key] == nil else {
                throw InputError(file: "--param", "\(id).\(key) is given twice; list several values as \(id).\(key)=a,b,c to sweep them")
            }
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if values.count > 1 {
                if values.contains(where: \.isEmpty) { throw InputError(file: "--param", "'\(param)' has an empty value in its list") }
                if let repeated = values.first(where: { value in values.filter { $0 == value }.count > 1 }) {
                    throw InputError(file: "--param", "'\(param)' lists \(repeated) twice")
                }
            }
            grouped[id, default: [:]][key] = values
        }
        keys = grouped.mapValues { entries in entries.keys.sorted().map { ($0, entries[$0] ?? []) } }
    }

    /// Strategy ids that have parameters, sorted.
    var strategyIDs: [String] { keys.keys.sorted() }

    /// The settings `id` runs, in the documented order: the cartesian product of its keys'
    /// values with the first key (by name) varying slowest and values in the order given. One
    /// setting, named `id`, when nothing is swept.
    func settings(for id: String) -> [Setting] {
        let entries = keys[id] ?? []
        var combinations: [[String]] = [[]]
        for entry in entries {
            combinations = combinations.flatMap { prefix in entry.values.map { prefix + [$0] } }
        }
        return combinations.map { combination in
            var values: [String: String] = [:]
            var swept: [String] = []
            for (entry, value) in zip(entries, combination) {
                values[entry.key] = value
                if entry.values.count > 1 { swept.append("\(entry.key)=\(value)") }
            }
            return Setting(rowID: swept.isEmpty ? id : "\(id)[\(swept.joined(separator: ","))]", values: values)
        }
    }
}
