import ABRLab

/// A parameter value of a Lua strategy; its case is fixed by the script's default. Lua and
/// native strategies share one parameter type, so overrides and sweeps treat them alike.
public typealias LuaParamValue = StrategyParamValue
