import ABRLab
import ABRLabSettings

extension ExperimentSettings {
    /// The strategy catalogue these settings describe: parameters, Lua limits, verbosity.
    public func strategyResolver() throws(InputError) -> StrategyResolver {
        StrategyResolver(params: try resolveParams(), luaLimits: try luaLimits(), verbose: verbose)
    }

    /// `params` and the `paramGrid` file's settings by strategy id, sweeps included.
    public func resolveParams() throws(InputError) -> ParamAssignments {
        try ParamAssignments(parsing: params, grid: try paramGrid.map(ParamGrid.init(contentsOf:)))
    }
}
