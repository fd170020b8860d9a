import ABRLab
import ABRLabDatasets
import ABRLabLua

/// `--param` values by strategy id. `id.key=value` sets one value; `id.key=a,b,c` sweeps the
/// key over several values, and every combination of a strategy's swept keys (their cartesian
/// product) runs as its own row, e.g. `bola[gp=3]`. A `--param-grid` file adds settings listed
/// row by row (``ParamGrid``), each combined with every `--param` combination.
public struct ParamAssignments {
    /// One combination of values for one strategy, and the id its rows carry.
    public struct Setting: Equatable {
        /// `id` when nothing is swept, else `id[key=value,...]` with the swept keys in name order.
        let rowID: String
        /// Every key set for the strategy, swept or not.
        let values: [String: String]
        /// The grid file's line this setting takes values from, with those values.
        var gridRow: ParamGrid.Row? = nil
    }

    /// Keys in name order with their values in the order given.
    private(set) var keys: [String: [(key: String, values: [String])]] = [:]
    /// The `--param-grid` file, if any.
    private(set) var grid: ParamGrid?

    public init() {}

    /// One value per strategy id and key, as code sets them: nothing is swept, commas are kept.
    public init(_ values: [String: [String: String]]) {
        keys = values.mapValues { entries in entries.keys.sorted().map { ($0, [entries[$0] ?? ""]) } }
    }

    /// Reads `--param` arguments. A key given twice, an empty value in a list or a value listed
    /// twice is an error.
    public init(parsing params: [String]) throws(InputError) {
        var grouped: [String: [String: [String]]] = [:]
        for param in params {
            let parsed: LuaParamOverride
            do { parsed = try LuaParamOverride(parsing: param) } catch {
                throw InputError(setting: .param, "'\(param)' is not of the form id.key=value")
            }
            let (id, key, text) = (parsed.strategyID, parsed.key, parsed.value)
            guard grouped[id]?[key] == nil else {
                throw InputError(setting: .param, "\(id).\(key) is given twice; list several values as \(id).\(key)=a,b,c to sweep them")
            }
            // A value naming a dataset (`model=pensieve/model`) is its installed file.
            let values = try text.split(separator: ",", omittingEmptySubsequences: false).map { value throws(InputError) in
                try DatasetInput.path(String(value))
            }
            if values.count > 1 {
                if values.contains(where: \.isEmpty) { throw InputError(setting: .param, "'\(param)' has an empty value in its list") }
                if let repeated = values.first(where: { value in values.filter { $0 == value }.count > 1 }) {
                    throw InputError(setting: .param, "'\(param)' lists \(repeated) twice")
                }
            }
            grouped[id, default: [:]][key] = values
        }
        keys = grouped.mapValues { entries in entries.keys.sorted().map { ($0, entries[$0] ?? []) } }
    }

    /// `--param` arguments and a `--param-grid` file; a key both set is an error, and so are more
    /// settings than ``ParamGrid/maximumSettings``, counted before any is made.
    public init(parsing params: [String], grid: ParamGrid?) throws(InputError) {
        try self.init(parsing: params)
        if let grid {
            for id in grid.rows.keys.sorted() {
                let given = Set((keys[id] ?? []).map(\.key))
                if let key = grid.keys(for: id).first(where: given.contains) {
                    throw InputError(file: grid.file, mentioning: "\(id).\(key) is also set by \(ABRLab.Setting.param); set it in one place")
                }
            }
        }
        self.grid = grid
        var total = 0
        for id in strategyIDs {
            total += settingCount(for: id, atMost: ParamGrid.maximumSettings - total)
            guard total <= ParamGrid.maximumSettings else {
                throw InputError(
                    grid.flatMap { $0.rows[id] == nil ? nil : .file($0.file) } ?? .settings([.param]),
                    "the settings make more than \(ParamGrid.maximumSettings) rows, the most one run holds; split the sweep into several runs"
                )
            }
        }
    }

    /// How many settings `id` runs (``settings(for:)``), or a number past `limit` once the
    /// product passes it, without overflow.
    public func settingCount(for id: String, atMost limit: Int) -> Int {
        var count = grid?.rows[id]?.count ?? 1
        for entry in keys[id] ?? [] {
            count *= entry.values.count
            if count > limit { return limit + 1 }
        }
        return count
    }

    /// Strategy ids that have parameters, sorted.
    public var strategyIDs: [String] { Set(keys.keys).union(grid.map { Array($0.rows.keys) } ?? []).sorted() }

    /// The settings `id` runs, in the documented order: its grid rows in file order (when the
    /// grid sets it), each with the cartesian product of its `--param` keys' values, the first
    /// key (by name) varying slowest and values in the order given. One setting, named `id`,
    /// when nothing is swept. Swept keys are the listed ones and the grid's keys whose value
    /// differs between two rows.
    public func settings(for id: String) -> [Setting] {
        let entries = keys[id] ?? []
        var combinations: [[String]] = [[]]
        for entry in entries {
            combinations = combinations.flatMap { prefix in entry.values.map { prefix + [$0] } }
        }
        let gridRows: [ParamGrid.Row?] = grid?.rows[id]?.map { Optional($0) } ?? [nil]
        var swept = Set(entries.filter { $0.values.count > 1 }.map(\.key))
        swept.formUnion(grid?.sweptKeys(for: id) ?? [])
        return gridRows.flatMap { row in
            combinations.map { combination in
                var values = row?.values ?? [:]
                for (entry, value) in zip(entries, combination) { values[entry.key] = value }
                let named = values.keys.filter(swept.contains).sorted().map { "\($0)=\(values[$0] ?? "")" }
                return Setting(rowID: named.isEmpty ? id : "\(id)[\(named.joined(separator: ","))]", values: values, gridRow: row)
            }
        }
    }
}
