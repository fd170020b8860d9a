import ABRLab
import Foundation

/// `run.json`: what is needed to rerun a comparison exactly.
struct RunManifest: Encodable {
    struct Strategy: Encodable {
        let id: String
        let name: String
        let source: String
        let sha256: String?
        let params: [String: String]
    }

    struct Profile: Encodable {
        let name: String
        let payloadFraction: Double
        let latency: String
        let latencyConsumesTraceTime: Bool
        let maxBufferSeconds: Double
        let bufferWaitStepSeconds: Double
        let startupThresholdSeconds: Double
        let startupCountsAsRebuffer: Bool
        let segmentsToPlay: Int
        let maxSessionSeconds: Double
    }

    let command: [String]
    let version: String
    let seed: UInt64
    let jobs: Int
    let profile: Profile
    let qoe: String
    /// The built-in model's weights; absent for a Lua model, whose script sets its own.
    let rebufferPenalty: Double?
    let smoothnessPenalty: Double?
    let video: String
    let traces: Int
    let strategies: [Strategy]

    init(plan: ExperimentPlan, descriptors: [StrategyDescriptor], params: [String: [String: String]], jobs: Int) {
        command = CommandLine.arguments
        version = ABRLabVersion.current
        seed = plan.seed
        self.jobs = jobs
        let p = plan.emulator.profile
        let latency: String
        switch p.latency {
        case .fixed(let seconds): latency = "fixed \(seconds) s"
        case .trace(let fallback): latency = "trace, else \(fallback) s"
        }
        profile = Profile(
            name: p.name, payloadFraction: p.payloadFraction, latency: latency,
            latencyConsumesTraceTime: p.latencyConsumesTraceTime, maxBufferSeconds: p.maxBufferSeconds,
            bufferWaitStepSeconds: p.bufferWaitStepSeconds, startupThresholdSeconds: p.startupThresholdSeconds,
            startupCountsAsRebuffer: p.startupCountsAsRebuffer, segmentsToPlay: plan.emulator.segmentCount(for: plan.video),
            maxSessionSeconds: p.maxSessionSeconds
        )
        qoe = plan.qoeName
        rebufferPenalty = plan.customQoE == nil ? plan.qoe.rebufferPenalty : nil
        smoothnessPenalty = plan.customQoE == nil ? plan.qoe.smoothnessPenalty : nil
        video = plan.video.name
        traces = plan.traces.count
        strategies = descriptors.map { descriptor in
            let data = descriptor.source == "native" ? nil : FileManager.default.contents(atPath: descriptor.source)
            return Strategy(
                id: descriptor.id, name: descriptor.name, source: descriptor.source,
                sha256: data.map { SHA256.hex($0) }, params: params[descriptor.id] ?? [:]
            )
        }
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
