import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

/// Genet's two published actors (../shared/datasets/genet): the forward pass against TensorFlow's
/// outputs in each `*.verify.json`, and every session of Genet's harness on Pensieve's 142 test
/// traces against the independent numpy transcription (GenetReferenceFixture, made by
/// scripts/genet-reference from ../shared/specs/genet.md).
@Suite(.tags(.core, .datasets, .reference), .selectedByTags, .needsDatasets("genet"))
struct GenetAgentTests {
    static func model(_ table: String) -> String {
        Datasets.url("genet/\(GenetReferenceFixture.files[table]!)").path
    }

    struct Verification {
        /// Probabilities by input name and by computation (`tf`, `np64`, `np32`).
        let fixed: [String: [String: [Double]]]
        /// The largest difference between numpy's float32 forward pass and TensorFlow's over
        /// the file's random batches.
        let float32Spread: Double

        init(_ table: String) throws {
            let url = URL(fileURLWithPath: GenetAgentTests.model(table).replacingOccurrences(of: ".safetensors", with: ".verify.json"))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            fixed = (json["fixed_inputs"] as! [String: Any]).mapValues { ($0 as! [String: Any]).mapValues { ($0 as! [NSNumber]).map(\.doubleValue) } }
            let batches = (json["batches"] as! [String: Any]).values.map { $0 as! [String: Any] }
            float32Spread = batches.map { ($0["max_abs_diff_prob_np32_vs_tf"] as! NSNumber).doubleValue }.max()!
        }
    }

    /// The fixed inputs whose state the file's names define: all zeros, all ones, and `ramp`,
    /// each row 0.1 … 0.6 (as float32: the file's np64 outputs match it to 2e-16).
    /// `first_decision_like` is left out: its state is not in the file.
    static let inputs: [(String, [[Double]])] = [
        ("zeros", Array(repeating: Array(repeating: 0, count: 6), count: 6)),
        ("ones", Array(repeating: Array(repeating: 1, count: 6), count: 6)),
        ("ramp", Array(repeating: (1...6).map { Double(Float($0) / 10) }, count: 6)),
    ]

    /// abrlab's float32 forward pass differs from TensorFlow's only in the order of its sums, as
    /// numpy's float32 does: it must land within the spread the file measured between those two
    /// (4.2e-7 for the simulation model, 6.0e-6 for the emulation model, whose logits reach 111).
    @Test(arguments: ["simulation", "emulation"])
    func fixedInputsGiveTensorFlowsProbabilities(table: String) throws {
        let network = try ActorNetwork(contentsOf: Self.model(table), declared: .genet)
        let verification = try Verification(table)
        for (name, state) in Self.inputs {
            let p = network.probabilities(state)
            let tf = try #require(verification.fixed[name]?["tf"])
            for (a, b) in zip(p, tf) {
                #expect(abs(a - b) <= verification.float32Spread, "\(table) \(name): \(p) vs TensorFlow \(tf)")
            }
            #expect(PensieveStrategy.argmax(p) == PensieveStrategy.argmax(tf))
        }
    }

    @Test(arguments: ["simulation", "emulation"])
    func theFilesDescribeGenetsLayoutThemselves(table: String) throws {
        let described = try ActorNetwork(contentsOf: Self.model(table))
        let declared = try ActorNetwork(contentsOf: Self.model(table), declared: .genet)
        for network in [described, declared] {
            #expect(network.columns == 6 && network.outputs == 3 && network.nextSizes == 6)
            #expect(network.chunksLeftRow == 5 && network.actions == .steps)
            #expect(network.parameterCount == 109_187)
        }
        #expect(described.probabilities(Self.inputs[2].1) == declared.probabilities(Self.inputs[2].1))
    }

    @Test func eachAgentsModelIsRefusedUnderTheOthersLayoutNamingTheTensor() throws {
        let genet = Self.model("simulation")
        #expect(PensieveStrategyTests.failure { _ = try ActorNetwork(contentsOf: genet, declared: .pensieve) }
            == "\(genet): does not fit the pensieve layout: actor/Conv1D/W reads a history of 6 columns (shape [4, 1, 6, 128]) but the pensieve layout declares 8")
        let pensieve = ActorNetworkTests.shippedModel
        #expect(PensieveStrategyTests.failure { _ = try ActorNetwork(contentsOf: pensieve, declared: .genet) }
            == "\(pensieve): does not fit the genet layout: actor/Conv1D/W reads a history of 8 columns (shape [4, 1, 8, 128]) but the genet layout declares 6")
    }
}

/// Every session of Genet's harness, as `--profile pensieve --qoe linear --rebuffer-penalty 10
/// --param genet.first_level=1` plays it: each chunk's level and the total reward, both models,
/// argmax and sampled (seed 42 per session).
@Suite(.tags(.core, .datasets, .reference), .selectedByTags, .needsDatasets("genet"), .needsDatasets("pensieve"))
struct GenetHarnessTests {
    static let qoe = QoEModel(kind: .linear, rebufferPenalty: 10)

    @Test(arguments: ["simulation", "emulation"])
    func everyTestTraceMatchesTheReference(table: String) throws {
        let descriptor = StrategyDescriptor.genet(defaultModelPath: GenetAgentTests.model(table))
        let video = try PensieveAcceptanceTests.video()
        let references = table == "simulation" ? GenetReferenceFixture.simulation : GenetReferenceFixture.emulation
        #expect(references.count == 142)
        for reference in references {
            let trace = try TraceLoader.load(Datasets.url("pensieve/cooked_test_traces/\(reference.name)")).trace
            for (action, levels, total) in [("sampled", reference.sampledLevels, reference.sampledTotal), ("argmax", reference.argmaxLevels, reference.argmaxTotal)] {
                let strategy = try descriptor.configured(["action": action, "first_level": "1"]).makeStrategy()
                let result = try SessionEmulator(profile: .pensieve).run(strategy: strategy, strategyID: "genet", trace: trace, video: video)
                #expect(result.segments.map { String($0.level) }.joined() == levels, "\(table) \(reference.name) \(action)")
                let played = SessionMetrics(result: result, qoe: Self.qoe, ladder: video.ladder).qoeTotal
                #expect(abs(played - total) < 1e-9, "\(table) \(reference.name) \(action): \(played) vs \(total)")
            }
        }
    }
}
