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
    /// strategy, bound to the engine of the thread that sets it up. `id` names the rows of one
    /// setting of a parameter sweep (default: the script's id).
    public func descriptor(id rowID: String? = nil) -> StrategyDescriptor {
        let script = self
        return StrategyDescriptor(id: rowID ?? id, name: name, description: description, source: path) {
            script.makeStrategy()
        }
    }
}
