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
        var descriptor = StrategyDescriptor(
            id: id, name: name, description: description, source: path,
            params: params.map { StrategyParam(key: $0.key, value: $0.value) },
            configure: { values throws(InputError) in try script.overriding(values).descriptor() }
        ) {
            script.makeStrategy()
        }
        descriptor.filesRead = { script.filesRead }
        return descriptor
    }

    /// The modules and models the script's sessions have read so far, as paths, sorted.
    public var filesRead: [String] { resources.filesRead }
}
