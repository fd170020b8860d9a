/// A policy trained in Python, played as it was trained: a ``MLPNetwork`` over the Pensieve
/// state that `abrlab/ABR-v0` observes (docs/python.md), the most likely level at every
/// decision (the first on ties). The state starts at zero and records every delivered segment,
/// exactly as the environment's observation does, so the first decision is the network's too.
public struct MLPStrategy: SessionStrategy, Sendable {
    public let network: MLPNetwork
    private var state = PensieveState(columns: 8)

    public init(network: MLPNetwork) {
        self.network = network
    }

    /// The network has one output per level of the video.
    public func fit(_ setting: RunSetting) -> VideoFit {
        guard network.outputs == setting.video.levelCount else {
            return .unfit(reason: "the model has \(network.outputs) outputs but the video has \(setting.video.levelCount) levels; mlp plays output i as level i")
        }
        guard setting.video.levelCount <= state.columns else {
            return .unfit(reason: "Pensieve's state holds the next sizes of 8 levels at most, not \(setting.video.levelCount)")
        }
        return .fits
    }

    public mutating func setUp(_ session: SessionInfo) throws {
        state = PensieveState(columns: 8)
    }

    public mutating func didDownload(_ record: DownloadRecord, context: DecisionContext) {
        guard !record.abandoned, !record.isReplacement else { return }
        state.record(record, context: context)
    }

    public mutating func chooseLevel(_ context: DecisionContext) throws -> Int {
        // The environment hands the state over as float32: the network sees those values.
        let input = state.cells.map { Double(Float($0)) }
        let logits = input.withUnsafeBufferPointer { network.logits($0) }
        if let bad = logits.firstIndex(where: { !$0.isFinite }) {
            throw InputError(file: network.file, "the model's output \(bad + 1) is not a finite number on this state; its weights overflow")
        }
        return PensieveStrategy.argmax(logits)
    }
}

extension StrategyDescriptor {
    /// A trained MLP policy, id `mlp`, with parameter `model` (a safetensors file in
    /// ``MLPNetwork``'s layout), read once per configuration.
    public static let mlp = StrategyDescriptor(
        id: "mlp",
        name: "MLP policy",
        description: "A dense network over Pensieve's state trained in Python (docs/python.md); plays the most likely level.",
        params: [
            StrategyParam(key: "model", value: .string(""), summary: "safetensors file: layers.N.weight/bias, activation metadata"),
        ]
    ) { values throws(InputError) in
        let path = values.declaredString("model")
        guard !path.isEmpty else { throw InputError(setting: .param, "mlp needs a model: mlp.model=FILE (a safetensors file, docs/python.md)") }
        let network = try MLPNetwork(contentsOf: path)
        return { MLPStrategy(network: network) }
    }
}
