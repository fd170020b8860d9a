// Generated from the settings table (Sources/ABRLab/Settings/Setting+Declaration.swift) by
// ExperimentOptionsTests; do not edit: change the table and run
// `ABRLAB_UPDATE_GOLDEN=1 swift test --filter ExperimentOptionsTests`.
import ABRLab
import ArgumentParser

/// Options that every command that emulates sessions shares (compare, run, replay, export hls):
/// each setting of the table those commands all take, with its flag, help, value name and
/// default from its declaration. ``settings()`` reads them.
struct ExperimentOptions: ParsableArguments {
    @Option(name: .setting(.video), help: .setting(.video)) var video: String?
    @Option(name: .setting(.ladderKbps), help: .setting(.ladderKbps)) var ladderKbps: String?
    @Option(name: .setting(.segmentDurationS), help: .setting(.segmentDurationS)) var segmentDurationS: String?
    @Option(name: .setting(.segments), help: .setting(.segments)) var segments: String?
    @Option(name: .setting(.firstLevel), help: .setting(.firstLevel)) var firstLevel: String?
    @Option(name: .setting(.profile), help: .setting(.profile)) var profile: String?
    @Option(name: .setting(.targetLatencyS), help: .setting(.targetLatencyS)) var targetLatencyS: String?
    @Option(name: .setting(.liveDurationS), help: .setting(.liveDurationS)) var liveDurationS: String?
    @Option(name: .setting(.warmupS), help: .setting(.warmupS)) var warmupS: String?
    @Option(name: .setting(.warmupKbps), help: .setting(.warmupKbps)) var warmupKbps: String?
    @Option(name: .setting(.catchup), help: .setting(.catchup)) var catchup: String?
    @Option(name: .setting(.catchupMinDriftS), help: .setting(.catchupMinDriftS)) var catchupMinDriftS: String?
    @Option(name: .setting(.maxBufferS), help: .setting(.maxBufferS)) var maxBufferS: String?
    @Flag(name: .setting(.noAbandon), help: .setting(.noAbandon)) var noAbandon = false
    @Flag(name: .setting(.checkEveryStep), help: .setting(.checkEveryStep)) var checkEveryStep = false
    @Option(name: .setting(.replace), help: .setting(.replace)) var replace: String?
    @Option(name: .setting(.bandwidthMultiplier), help: .setting(.bandwidthMultiplier)) var bandwidthMultiplier: String?
    @Option(name: .setting(.estimator), help: .setting(.estimator)) var estimator: String?
    @Option(name: .setting(.qoe), help: .setting(.qoe)) var qoe: String?
    @Option(name: .setting(.gammaP), help: .setting(.gammaP)) var gammaP: String?
    @Option(name: .setting(.rebufferPenalty), help: .setting(.rebufferPenalty)) var rebufferPenalty: String?
    @Option(name: .setting(.smoothnessPenalty), help: .setting(.smoothnessPenalty)) var smoothnessPenalty: String?
    @Option(name: .setting(.switchPenalty), help: .setting(.switchPenalty)) var switchPenalty: String?
    @Option(name: .setting(.traceFormat), help: .setting(.traceFormat)) var traceFormat: String?
    @Option(name: .setting(.mahimahiBinMs), help: .setting(.mahimahiBinMs)) var mahimahiBinMs: String?
    @Option(name: .setting(.param), help: .setting(.param)) var param: [String] = []
    @Option(name: .setting(.paramGrid), help: .setting(.paramGrid)) var paramGrid: String?
    @Option(name: .setting(.seed), help: .setting(.seed)) var seed: String?
    @Option(name: .setting(.luaInstructions), help: .setting(.luaInstructions)) var luaInstructions: String?
    @Option(name: .setting(.luaMemoryMb), help: .setting(.luaMemoryMb)) var luaMemoryMb: String?
    @Flag(name: .setting(.verbose), help: .setting(.verbose)) var verbose = false

    /// Each option as the command line gave it, by setting.
    var typed: [Setting: TypedOption] {
        [
            .video: .text(video),
            .ladderKbps: .text(ladderKbps),
            .segmentDurationS: .text(segmentDurationS),
            .segments: .text(segments),
            .firstLevel: .text(firstLevel),
            .profile: .text(profile),
            .targetLatencyS: .text(targetLatencyS),
            .liveDurationS: .text(liveDurationS),
            .warmupS: .text(warmupS),
            .warmupKbps: .text(warmupKbps),
            .catchup: .text(catchup),
            .catchupMinDriftS: .text(catchupMinDriftS),
            .maxBufferS: .text(maxBufferS),
            .noAbandon: .flag(noAbandon),
            .checkEveryStep: .flag(checkEveryStep),
            .replace: .text(replace),
            .bandwidthMultiplier: .text(bandwidthMultiplier),
            .estimator: .text(estimator),
            .qoe: .text(qoe),
            .gammaP: .text(gammaP),
            .rebufferPenalty: .text(rebufferPenalty),
            .smoothnessPenalty: .text(smoothnessPenalty),
            .switchPenalty: .text(switchPenalty),
            .traceFormat: .text(traceFormat),
            .mahimahiBinMs: .text(mahimahiBinMs),
            .param: .texts(param),
            .paramGrid: .text(paramGrid),
            .seed: .text(seed),
            .luaInstructions: .text(luaInstructions),
            .luaMemoryMb: .text(luaMemoryMb),
            .verbose: .flag(verbose),
        ]
    }
}
