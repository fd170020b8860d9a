import ABRLab

extension LuaScript {
    /// A fresh strategy for one session, of the script's form.
    public func makeStrategy() -> any SessionStrategy {
        switch form {
        case .session: LuaStrategy(script: self)
        case .questions: LuaQuestionStrategy(script: self)
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
        descriptor.resources = script.resources
        return descriptor
    }

    /// The modules and models the script reads: those known when it loaded, and any its
    /// sessions have read since.
    public var files: any ScriptResources { resources }
}
