import ABRLab
import ABRLabCompare
import ABRLabLua
import ABRLabSettings
import ArgumentParser
import Foundation

/// Options that every command that emulates sessions shares: the video, the profile, the QoE
/// model, segment count, seed and strategy parameters. Each is a setting of the table
/// (`Setting.declaration`): its flag, help and range come from there.
struct ExperimentOptions: ParsableArguments {
    @Option(name: .setting(.video), help: .setting(.video, valueName: "spec")) var video: String?
    @Option(name: .setting(.ladderKbps), help: .setting(.ladderKbps, valueName: "kbps,...")) var ladderKbps: String?
    @Option(name: .setting(.segmentDurationS), help: .setting(.segmentDurationS)) var segmentDurationSeconds: String?
    @Option(name: .setting(.segments), help: .setting(.segments, valueName: "n")) var segments: String?
    @Option(name: .setting(.firstLevel), help: .setting(.firstLevel, valueName: "level")) var firstLevel: String?
    @Option(name: .setting(.profile), help: .setting(.profile, valueName: "name")) var profile: String?
    @Option(name: .setting(.targetLatencyS), help: .setting(.targetLatencyS)) var targetLatencySeconds: String?
    @Option(name: .setting(.liveDurationS), help: .setting(.liveDurationS)) var liveDurationSeconds: String?
    @Option(name: .setting(.warmupS), help: .setting(.warmupS)) var warmupSeconds: String?
    @Option(name: .setting(.warmupKbps), help: .setting(.warmupKbps)) var warmupKbps: String?
    @Option(name: .setting(.catchup), help: .setting(.catchup, valueName: "dashjs5|dashjs3")) var catchup: String?
    @Option(name: .setting(.catchupMinDriftS), help: .setting(.catchupMinDriftS)) var catchupMinDriftSeconds: String?
    @Option(name: .setting(.maxBufferS), help: .setting(.maxBufferS)) var maxBufferSeconds: String?
    @Flag(name: .setting(.noAbandon), help: .setting(.noAbandon)) var noAbandon = false
    @Flag(name: .setting(.checkEveryStep), help: .setting(.checkEveryStep)) var checkEveryStep = false
    @Option(name: .setting(.replace), help: .setting(.replace, valueName: "rule")) var replace: String?
    @Option(name: .setting(.bandwidthMultiplier), help: .setting(.bandwidthMultiplier)) var bandwidthMultiplier: String?
    @Option(name: .setting(.estimator), help: .setting(.estimator, valueName: "spec")) var estimator: String?
    @Option(name: .setting(.qoe), help: .setting(.qoe, valueName: "model")) var qoe: String?
    @Option(name: .setting(.gammaP), help: .setting(.gammaP)) var gammaP: String?
    @Option(name: .setting(.rebufferPenalty), help: .setting(.rebufferPenalty)) var rebufferPenalty: String?
    @Option(name: .setting(.smoothnessPenalty), help: .setting(.smoothnessPenalty)) var smoothnessPenalty: String?
    @Option(name: .setting(.switchPenalty), help: .setting(.switchPenalty)) var switchPenalty: String?
    @Option(name: .setting(.traceFormat), help: .setting(.traceFormat, valueName: "format")) var traceFormat: String?
    @Option(name: .setting(.mahimahiBinMs), help: .setting(.mahimahiBinMs)) var mahimahiBinMilliseconds: String?
    @Option(name: .setting(.param), help: .setting(.param, valueName: "id.key=value")) var params: [String] = []
    @Option(name: .setting(.paramGrid), help: .setting(.paramGrid, valueName: "file")) var paramGrid: String?
    @Option(name: .setting(.seed), help: .setting(.seed)) var seed: String?
    @Option(name: .setting(.luaInstructions), help: .setting(.luaInstructions)) var luaInstructions: String?
    @Option(name: .setting(.luaMemoryMb), help: .setting(.luaMemoryMb)) var luaMemoryMegabytes: String?
    @Flag(name: .setting(.verbose), help: .setting(.verbose)) var verbose = false

    /// The options given, by setting, as text: each is read by its declared kind and checked
    /// against the table by the one door Python's keywords pass too (`ExperimentSettings(given:)`).
    func settings() throws(InputError) -> ExperimentSettings {
        let texts: [Setting: String?] = [
            .video: video, .ladderKbps: ladderKbps, .segmentDurationS: segmentDurationSeconds, .segments: segments,
            .firstLevel: firstLevel, .profile: profile, .targetLatencyS: targetLatencySeconds, .liveDurationS: liveDurationSeconds,
            .warmupS: warmupSeconds, .warmupKbps: warmupKbps, .catchup: catchup, .catchupMinDriftS: catchupMinDriftSeconds,
            .maxBufferS: maxBufferSeconds, .replace: replace, .bandwidthMultiplier: bandwidthMultiplier, .estimator: estimator,
            .qoe: qoe, .gammaP: gammaP, .rebufferPenalty: rebufferPenalty, .smoothnessPenalty: smoothnessPenalty,
            .switchPenalty: switchPenalty, .traceFormat: traceFormat, .mahimahiBinMs: mahimahiBinMilliseconds,
            .paramGrid: paramGrid, .seed: seed, .luaInstructions: luaInstructions, .luaMemoryMb: luaMemoryMegabytes,
        ]
        let flags: [Setting: Bool] = [.noAbandon: noAbandon, .checkEveryStep: checkEveryStep, .verbose: verbose]
        var values = flags.filter(\.value).mapValues(SettingValue.flag)
        if !params.isEmpty { values[.param] = .texts(params) }
        return try ExperimentSettings(texts: texts, values: values)
    }

    /// The video, its warnings printed.
    /// The video, its warnings printed.
    func resolveVideo() throws(InputError) -> Video {
        let (video, warnings) = try settings().resolveVideoWithWarnings()
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return video
    }
}
