import ABRLab

extension LuaScript {
    /// A fresh strategy for one session, of the script's form.
    public func makeStrategy() -> any SessionStrategy {
        switch form {
        case .session: LuaStrategy(script: self)
        case .seedProtocol: LuaSeedStrategy(script: self)
        }
    }

    /// Names the script for experiments; source is its path and every session gets a fresh
    /// strategy, bound to the engine of the thread that sets it up. Its parameters can be set
    /// like a native strategy's, through ``StrategyDescriptor/configured(_:)``.
    public func descriptor() -> StrategyDescriptor {
        let script = self
        return StrategyDescriptor(
            id: id, name: name, description: description, source: path,
            params: params.map { StrategyParam(key: $0.key, value: $0.value.strategyValue) },
            configure: { values throws(InputError) in try script.overriding(values).descriptor() }
        ) {
            script.makeStrategy()
        }
    }
}

extension LuaParamValue {
    /// The same value as the core's parameter type.
    var strategyValue: StrategyParamValue {
        switch self {
        case .number(let value): .number(value)
        case .integer(let value): .integer(value)
        case .boolean(let value): .boolean(value)
        case .string(let value): .string(value)
        }
    }
}
