import ABRLab
import ABRLabCompare
import Foundation

extension Bench {
    /// Pensieve's actor: forward passes per second on one core, then the 142 test traces played by
    /// pensieve-native and pensieve.lua (sampled, seed 42), one thread each, CSV written.
    func pensieve() throws {
        print("Pensieve's actor (forward passes on one core; 142 test traces per strategy, one thread, CSV written)")
        let model = "\(strategies)/models/pensieve.safetensors"
        guard FileManager.default.fileExists(atPath: model) else {
            print("  skipped: \(model) not found")
            return
        }
        let network = try ActorNetwork(contentsOf: model)
        var state = [Double](repeating: 0, count: network.inputCount)
        for index in state.indices { state[index] = Double(index % 7) * 0.13 }
        var output = [Double](repeating: 0, count: network.outputs)
        let passes = 200_000
        var sink = 0.0
        // One input cell changes per pass so no work can be hoisted out of the loop.
        let seconds = BenchmarkClock.bestSeconds {
            for pass in 0..<passes {
                state[network.inputCount - 1] = Double(pass & 15) * 0.01
                state.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { network.forward(input: input.baseAddress!, output: $0.baseAddress!) }
                }
                sink += output[0]
            }
        }
        print(String(format: "  forward pass: %.0f per second per core (%.2f µs each, %d multiply-adds)",
                     Double(passes) / seconds, seconds / Double(passes) * 1e6, network.multiplyAdds))
        if sink.isNaN { print(sink) }

        guard let inputs = try pensieveInputs() else { return }
        let script = "\(strategies)/pensieve.lua"
        let arguments = FileManager.default.fileExists(atPath: script) ? ["pensieve-native", script] : ["pensieve-native"]
        for descriptor in try StrategyResolver(params: ParamAssignments(["pensieve-native": ["model": model]])).resolveWithWarnings(arguments).descriptors {
            let plan = ExperimentPlan(
                strategies: [descriptor], traces: inputs.traces, video: inputs.video,
                emulator: SessionEmulator(profile: .pensieve), qoe: .linear, seed: 1
            )
            let seconds = try BenchmarkClock.bestSeconds { try runPlan(plan, jobs: 1) }
            print(String(format: "  %@: %.3f s for %d traces (%.2f µs per decision; Pensieve's TensorFlow harness: about 4.6 s of inference)",
                         descriptor.id, seconds, inputs.traces.count, seconds / Double(inputs.traces.count * 48) * 1e6))
        }
    }
}
