import ABRLab

/// Small plans for the runner: CBR sessions over constant traces with scripted strategies.
public enum RunnerFixtures {
    public static func descriptor(_ id: String, levels: [Int]) -> StrategyDescriptor {
        StrategyDescriptor(id: id, name: id, description: "plays \(levels)") { ScriptedStrategy(levels: levels) }
    }

    public static func plan(
        strategies: [StrategyDescriptor]? = nil, traceCount: Int = 4, segments: Int = 4, seed: UInt64 = 7
    ) throws -> ExperimentPlan {
        let traces = try (0..<traceCount).map { try EmulatorFixtures.constantTrace(mbps: 0.5 + Double($0), name: "trace-\($0)") }
        return ExperimentPlan(
            strategies: strategies ?? [descriptor("low", levels: [0]), descriptor("high", levels: [1]), descriptor("zigzag", levels: [0, 1, 0, 1])],
            traces: traces, video: try EmulatorFixtures.video(segments: segments),
            emulator: SessionEmulator(profile: EmulatorFixtures.idealProfile()), qoe: .linear, seed: seed
        )
    }
}
