import Foundation

extension StrategyDescriptor {
    /// Genet's learned agent, id `genet`: Xia et al., "Genet: Automatic Curriculum Generation for
    /// Learning Adaptation in Networking", SIGCOMM 2022, doi:10.1145/3544216.3544243, played as
    /// its test harness (`fig_reproduce/sim/rl_test_clean.py`) plays it: a Pensieve-family actor
    /// with the ``ActorDeclaration/genet`` layout (6 × 6 state, branch 6 on row 5, steps down,
    /// none, up). Parameters as `pensieve-native`'s: `action` (`sampled` — `sample` is the same —
    /// or `argmax`), `seed`, `model` and `first_level` (1-based; Genet's harness starts at 1).
    /// Genet's models are not shipped: `defaultModelPath` is its simulation model among the
    /// shared datasets, used when it is there.
    public static func genet(defaultModelPath: String) -> StrategyDescriptor {
        StrategyDescriptor(
            id: "genet",
            name: "Genet",
            description: "Genet's learned actor (SIGCOMM 2022) as its test harness plays it: a step down, none or up; sampled or argmax.",
            params: [
                StrategyParam(
                    key: "action", value: .string("sampled"), choices: ["sampled", "sample", "argmax"],
                    summary: "sampled (numpy draw, as Genet's harness; sample is the same) or argmax"
                ),
                StrategyParam(key: "seed", value: .integer(42), summary: "numpy legacy seed, set at the start of every session (0 … 2^32 − 1)"),
                StrategyParam(key: "first_level", value: .integer(2), summary: "1-based level of the first segment (Genet's harness: 1)"),
                StrategyParam(key: "model", value: .string(defaultModelPath), summary: "safetensors actor of Genet's layout (not shipped)"),
            ]
        ) { values throws(InputError) in
            let action = values.declaredString("action") == "argmax" ? PensieveStrategy.Action.argmax : .sampled
            let seedValue = values.declaredInteger("seed")
            guard let seed = UInt32(exactly: seedValue) else {
                throw InputError(setting: .param, "parameter genet.seed needs an integer from 0 to 4294967295 (numpy's seed range), not \(seedValue)")
            }
            let firstLevel = values.declaredInteger("first_level")
            guard firstLevel >= 1 else {
                throw InputError(setting: .param, "parameter genet.first_level needs a level from 1, not \(firstLevel)")
            }
            let model = values.declaredString("model")
            if model == defaultModelPath, !FileManager.default.fileExists(atPath: model) {
                throw InputError(
                    setting: .param,
                    "genet's default model \(model) is not there; Genet's models are not shipped with abrlab: name one with genet.model=FILE"
                )
            }
            let network = try ActorNetwork(contentsOf: model, declared: .genet)
            return { PensieveStrategy(network: network, action: action, seed: seed, firstLevel: firstLevel - 1) }
        }
    }
}
