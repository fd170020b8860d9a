/// An agent of the Pensieve family — Pensieve's pretrained agent, Genet's — as its test harness
/// plays it.
///
/// Mao, Netravali, Alizadeh, "Neural Adaptive Video Streaming with Pensieve", SIGCOMM 2017,
/// doi:10.1145/3098822.3098843; `test/rl_no_training.py` of hongzimao/pensieve. Xia et al.,
/// "Genet: Automatic Curriculum Generation for Learning Adaptation in Networking", SIGCOMM 2022,
/// doi:10.1145/3544216.3544243; `fig_reproduce/sim/rl_test_clean.py` of GenetProject/Genet. The
/// first segment is fetched at `firstLevel` without asking the network; after every download the
/// ``PensieveState`` is updated and the ``ActorNetwork`` evaluated. `argmax` plays the most
/// probable output (the first on ties); `sampled`, what both harnesses do, draws
/// k = `randint(1, 1000)` from numpy's legacy generator and plays the first output whose
/// cumulative probability exceeds k / 1000. An output is a level (Pensieve) or a step down, none
/// or up from the level just downloaded, clamped to the ladder (Genet), as the network says. The
/// generator is seeded with `seed` at the start of every session, so sessions are independent
/// and each equals the harness's first trace.
public struct PensieveStrategy: SessionStrategy, Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case sampled, argmax
    }

    public let network: ActorNetwork
    public var action: Action
    public var seed: UInt32
    /// 0-based level of the first segment.
    public var firstLevel: Int

    private var state: PensieveState
    private var random: NumpyLegacyRandom

    public init(network: ActorNetwork, action: Action = .sampled, seed: UInt32 = 42, firstLevel: Int = 1) {
        self.network = network
        self.action = action
        self.seed = seed
        self.firstLevel = firstLevel
        state = PensieveState(columns: network.columns)
        random = NumpyLegacyRandom(seed: seed)
    }

    /// The network's outputs are the ladder's levels (or steps over them), and row 4 holds one
    /// size per level.
    public func fit(_ setting: RunSetting) -> VideoFit {
        let levels = setting.video.levelCount
        if network.actions == .steps {
            guard network.nextSizes == levels else {
                return .unfit(reason: "the model reads the next sizes of \(network.nextSizes) levels but the video has \(levels) levels")
            }
        } else if network.outputs != levels {
            return .unfit(reason: "the model has \(network.outputs) actions but the video has \(levels) levels; pensieve-native plays action i as level i")
        }
        guard levels <= network.columns else {
            return .unfit(reason: "the state holds \(network.columns) columns, too few for the next sizes of \(levels) levels")
        }
        return .fits
    }

    public mutating func setUp(_ session: SessionInfo) throws {
        let setting = RunSetting(
            video: session.video, segmentCount: session.segmentCount, profileName: session.profileName,
            maxBufferSeconds: session.maxBufferSeconds, live: session.live
        )
        if case .unfit(let reason) = fit(setting) { throw InputError(file: network.file, reason) }
        state = PensieveState(columns: network.columns)
        random = NumpyLegacyRandom(seed: seed)
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        state.record(record, context: context)
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
        guard context.lastLevel != nil else { return min(firstLevel, context.levelCount - 1) }
        var probabilities = [Double](repeating: 0, count: network.outputs)
        state.cells.withUnsafeBufferPointer { input in
            probabilities.withUnsafeMutableBufferPointer { output in
                network.forward(input: input.baseAddress!, output: output.baseAddress!)
            }
        }
        // Finite weights can still overflow float32 on some state; a NaN must not pass as a choice.
        if let bad = probabilities.firstIndex(where: { !($0 >= 0 && $0 <= 1) }) {
            throw InputError(file: network.file, "the model's output \(bad + 1) is not a probability (\(NumberText.readable(probabilities[bad]))); its weights overflow on this state")
        }
        let output: Int
        switch action {
        case .argmax:
            output = Self.argmax(probabilities)
        case .sampled:
            let threshold = Double(random.randomInteger(low: 1, high: 1000)) / 1000
            output = Self.firstAbove(threshold, cumulating: probabilities)
        }
        return Self.level(output: output, actions: network.actions, lastLevel: context.lastLevel ?? 0, levelCount: context.levelCount)
    }

    /// The 0-based level output `output` plays: itself for levels; for steps (0 down, 1 stay,
    /// 2 up) `lastLevel` moved by one and clamped to 0…`levelCount` − 1, as Genet's
    /// `calculate_from_selection` does.
    public static func level(output: Int, actions: ActorDeclaration.Actions, lastLevel: Int, levelCount: Int) -> Int {
        switch actions {
        case .levels: output
        case .steps: min(max(lastLevel + output - 1, 0), levelCount - 1)
        }
    }

    /// The first index of the largest value.
    public static func argmax(_ values: [Double]) -> Int {
        var best = 0
        for index in values.indices where values[index] > values[best] { best = index }
        return best
    }

    /// The first index whose running sum exceeds `threshold`; 0 when none does (numpy's argmax
    /// of an all-false array).
    public static func firstAbove(_ threshold: Double, cumulating values: [Double]) -> Int {
        var sum = 0.0
        for index in values.indices {
            sum += values[index]
            if sum > threshold { return index }
        }
        return 0
    }
}

extension StrategyDescriptor {
    /// Native Pensieve agent, id `pensieve-native`, with parameters `action` (`sampled` or
    /// `argmax`), `seed` (numpy seed per session) and `model` (a safetensors actor; the shipped
    /// one at `defaultModelPath`). The model is read once per configuration.
    public static func pensieve(defaultModelPath: String) -> StrategyDescriptor {
        StrategyDescriptor(
            id: "pensieve-native",
            name: "Pensieve (native)",
            description: "Pensieve's pretrained actor (SIGCOMM 2017) as its test harness plays it: sampled or argmax.",
            params: [
                StrategyParam(key: "action", value: .string("sampled"), choices: PensieveStrategy.Action.allCases.map(\.rawValue), summary: "sampled (numpy draw, as the harness) or argmax"),
                StrategyParam(key: "seed", value: .integer(42), summary: "numpy legacy seed, set at the start of every session (0 … 2^32 − 1)"),
                StrategyParam(key: "model", value: .string(defaultModelPath), summary: "safetensors actor network"),
            ]
        ) { values throws(InputError) in
            let action = PensieveStrategy.Action(rawValue: values.declaredString("action")) ?? .sampled
            let seedValue = values.declaredInteger("seed")
            guard let seed = UInt32(exactly: seedValue) else {
                throw InputError(setting: .param, "parameter pensieve-native.seed needs an integer from 0 to 4294967295 (numpy's seed range), not \(seedValue)")
            }
            let network = try ActorNetwork(contentsOf: values.declaredString("model"))
            return { PensieveStrategy(network: network, action: action, seed: seed) }
        }
    }
}
