extension StrategyDescriptor {
    /// The same strategy under another id: one setting of a parameter sweep runs as its own
    /// row, e.g. `bola[gp=3]`. Parameters, configuration and files read carry over.
    public func renamed(_ newID: String) -> StrategyDescriptor {
        guard newID != id else { return self }
        let original = self
        var renamed = StrategyDescriptor(
            id: newID, name: name, description: description, source: source, params: params, configure: configurator,
            make: { try original.makeStrategy() }
        )
        renamed.resources = resources
        return renamed
    }
}
