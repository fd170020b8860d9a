import ABRLab
import ABRLabLua
import Foundation

/// `run.json`: what is needed to rerun a comparison exactly and to tell which inputs made it —
/// the command, every input file with its hash, the profile's every parameter, each strategy's
/// typed parameters — and the files the run wrote, which the next run into the folder replaces.
struct RunManifest: Encodable {
    /// A strategy parameter with its declared type (`number`, `integer`, `boolean`, `string`).
    struct Parameter: Encodable {
        let key: String
        let type: String
        let value: LuaParamValue
        let defaultValue: LuaParamValue

        init(_ param: LuaParam, default declared: LuaParamValue) {
            key = param.key
            type = param.value.typeName
            value = param.value
            defaultValue = declared
        }

        enum CodingKeys: String, CodingKey { case key, type, value, defaultValue = "default" }
    }

    struct Strategy: Encodable {
        let id: String
        let name: String
        let source: String
        /// The script file; `nil` for native strategies.
        let file: RunInputs.File?
        let params: [Parameter]
        /// Model files the strategy reads (weights and the like), recorded like every input.
        let models: [RunInputs.File]
    }

    let command: [String]
    let version: String
    let seed: UInt64
    let jobs: Int
    let rankBy: String
    let profile: ReflectedValue
    let segmentsPlayed: Int
    let qoe: String
    let rebufferPenalty: Double
    let smoothnessPenalty: Double
    let inputs: RunInputs
    let strategies: [Strategy]
    /// The files this run wrote into its output folder.
    let files: [String]

    init(
        plan: ExperimentPlan, descriptors: [StrategyDescriptor], inputs: RunInputs, parameters: [String: [Parameter]],
        jobs: Int, rankBy: RankMetric, files: [String]
    ) {
        command = CommandLine.arguments
        version = ABRLabVersion.current
        seed = plan.seed
        self.jobs = jobs
        self.rankBy = rankBy.rawValue
        profile = ReflectedValue(plan.emulator.profile)
        segmentsPlayed = plan.emulator.segmentCount(for: plan.video)
        qoe = plan.qoe.name
        rebufferPenalty = plan.qoe.rebufferPenalty
        smoothnessPenalty = plan.qoe.smoothnessPenalty
        self.inputs = inputs
        strategies = descriptors.map { descriptor in
            Strategy(
                id: descriptor.id, name: descriptor.name, source: descriptor.source,
                file: descriptor.source == "native" ? nil : RunInputs.File(path: descriptor.source),
                params: parameters[descriptor.id] ?? [], models: Self.modelFiles(of: descriptor).compactMap { RunInputs.File(path: $0) }
            )
        }
        self.files = files
    }

    /// Hook for strategies that read model files: their paths, to be hashed like every input.
    /// No strategy of this build reads one.
    static func modelFiles(of descriptor: StrategyDescriptor) -> [String] { [] }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension LuaParamValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
