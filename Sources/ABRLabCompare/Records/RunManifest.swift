import ABRLab
import ABRLabDatasets
import ABRLabLua
import ABRLabResults
import ABRLabSettings
import Foundation

/// `run.json`: what is needed to rerun a comparison exactly and to tell which inputs made it —
/// the command, the settings by key, every input file with its hash, the profile's every
/// parameter, each strategy's typed parameters — and the files the run wrote, which the next
/// run into the folder replaces. Every key is written explicitly (``CodingKeys``), never a Swift
/// property's name.
public struct RunManifest: Encodable {
    /// `run.json`'s format: 2 since settings are keyed by the settings table (abrlab 0.2.0);
    /// abrlab 0.1.0 wrote no `format`.
    public static let format = 2

    /// A strategy parameter with its declared type (`number`, `integer`, `boolean`, `string`).
    public struct Parameter: Encodable {
        let key: String
        let type: String
        let value: StrategyParamValue
        let defaultValue: StrategyParamValue?

        init(key: String, value: StrategyParamValue, default declared: StrategyParamValue?) {
            self.key = key
            type = switch value {
            case .number: "number"
            case .integer: "integer"
            case .boolean: "boolean"
            case .string: "string"
            }
            self.value = value
            defaultValue = declared
        }

        enum CodingKeys: String, CodingKey { case key, type, value, defaultValue = "default" }
    }

    public struct Strategy: Encodable {
        let id: String
        let name: String
        let source: String
        /// The script file; `nil` for native strategies.
        let file: RunInputs.File?
        let params: [Parameter]
        /// Files the strategy read besides its script — modules it required, models it loaded, files
        /// its parameters name (a native model) — recorded like every input.
        let inputs: [RunInputs.File]

        enum CodingKeys: String, CodingKey { case id, name, source, file, params, inputs }
    }

    enum CodingKeys: String, CodingKey {
        case format, command, version, settings, seed, jobs, rankBy = "rank_by", profile, segmentsPlayed = "segments_played", qoe
        case qoeFile = "qoe_file", qoeInputs = "qoe_inputs", qoeModel = "qoe_model", rebufferPenalty = "rebuffer_penalty"
        case smoothnessPenalty = "smoothness_penalty", inputs, datasets, strategies, sharedLink = "shared_link", files
        case fingerprint, shard, warnings
    }

    public let format = RunManifest.format
    public let command: [String]
    public let version: String
    /// The session settings by key (``ExperimentSettings/record``).
    public let settings: PrettyJSON.Verbatim
    public let seed: UInt64
    public let jobs: Int
    public let rankBy: String
    public let profile: PrettyJSON.Verbatim
    /// `nil` on `live`, where each trace's length sets the count.
    public let segmentsPlayed: Int?
    /// The QoE model: a built-in name, or a Lua model's path.
    public let qoe: String
    /// A Lua QoE model's script, hashed like every input; absent for built-in models.
    public let qoeFile: RunInputs.File?
    /// The modules a Lua QoE model required; absent for built-in models.
    public let qoeInputs: [RunInputs.File]?
    /// Every parameter of the built-in QoE model (kind, penalties, level utilities, γp); absent
    /// for a Lua model, whose script sets its own.
    public let qoeModel: PrettyJSON.Verbatim?
    public let rebufferPenalty: Double?
    public let smoothnessPenalty: Double?
    public let inputs: RunInputs
    /// The datasets the run's inputs named by id, with the registry's hash of each; absent when none.
    public var datasets: [DatasetInput.Use]?
    /// Written element by element: a parameter grid's rows are most of run.json.
    public let strategies: PrettyJSON.ElementWise<Strategy>
    /// How players shared links; absent when every session played alone.
    public let sharedLink: SharedLink?
    /// The files this run wrote into its output folder.
    public let files: [String]
    /// The plan's fingerprint (see `PlanFingerprint`), the same in every shard of one plan.
    public var fingerprint: String?
    /// Set in a shard's folder only.
    public var shard: ShardManifest?
    /// Every warning the run printed, one line each (``RunWarnings``); `merge` joins the shards'.
    public var warnings: [String] = []

    public init(
        plan: ExperimentPlan, settings: ExperimentSettings, descriptors: [StrategyDescriptor], inputs: RunInputs,
        parameters: [String: [Parameter]], jobs: Int, rankBy: RankMetric, files: [String]
    ) {
        command = CommandLine.arguments
        self.settings = PrettyJSON.Verbatim(settings.recordValue)
        version = ABRLabVersion.current
        seed = plan.seed
        self.jobs = jobs
        self.rankBy = rankBy.rawValue
        profile = PrettyJSON.Verbatim(ProfileRecord.value(of: plan.emulator.profile))
        segmentsPlayed = plan.emulator.profile.liveSettings == nil ? plan.emulator.segmentCount(for: plan.video) : nil
        qoe = plan.qoeName
        let luaQoE = plan.customQoE as? LuaQoEModel
        qoeFile = luaQoE.flatMap { RunInputs.File(path: $0.path) }
        qoeInputs = luaQoE.map { $0.files.loadedFiles.map(RunInputs.File.init(loaded:)).sorted { $0.path < $1.path } }
        let builtIn = plan.customQoE == nil
        qoeModel = builtIn ? PrettyJSON.Verbatim(ProfileRecord.value(of: plan.qoe)) : nil
        rebufferPenalty = builtIn ? plan.qoe.rebufferPenalty : nil
        smoothnessPenalty = builtIn ? plan.qoe.smoothnessPenalty : nil
        self.inputs = inputs
        // Each file is read and hashed once, however many rows of a sweep name it.
        var records: [String: RunInputs.File?] = [:]
        func record(_ path: String) -> RunInputs.File? {
            if let known = records[path] { return known }
            let file = RunInputs.File(path: path)
            records[path] = file
            return file
        }
        strategies = PrettyJSON.ElementWise(descriptors.map { descriptor in
            Strategy(
                id: descriptor.id, name: descriptor.name, source: descriptor.source,
                file: descriptor.source == "native" ? nil : record(descriptor.source),
                params: parameters[descriptor.id] ?? [], inputs: descriptor.loadedInputs().map(RunInputs.File.init(loaded:))
            )
        })
        sharedLink = SharedLink(plan.grouping, strategies: plan.strategies)
        self.files = files
    }

    public func json() throws -> Data {
        try PrettyJSON.encode(self)
    }
}
