extension StrategyDescriptor {
    /// The native twin of `Strategies/sabre/ALGORITHM.lua`, id `sabre/ALGORITHM-native`: the
    /// script's parameters and defaults, numbers checked finite (the scripts' arithmetic has no
    /// meaning for others), one configured strategy copied into each session.
    static func sabreTwin<Strategy: SessionStrategy & Sendable>(
        _ algorithm: String, name: String, description: String, params: [StrategyParam],
        make: @escaping @Sendable (StrategyParamValues) -> Strategy
    ) -> StrategyDescriptor {
        let id = "sabre/\(algorithm)-native"
        return StrategyDescriptor(id: id, name: name, description: description, params: params) { values throws(InputError) in
            for param in values.params {
                guard case .number(let number) = param.value, !number.isFinite else { continue }
                throw InputError(setting: .param, "parameter \(id).\(param.key) needs a finite number, not \(number)")
            }
            let strategy = make(values)
            return { strategy }
        }
    }
}
