import ABRLab
import ABRLabCompare
import ABRLabLua
import ArgumentParser
import Foundation

/// Options that every command that emulates sessions shares: the video, the profile, the QoE
/// model, segment count, seed and strategy parameters. Each is a setting of the table
/// (`Setting.declaration`): its flag, help and range come from there.
struct ExperimentOptions: ParsableArguments {
    @Option(name: .setting(.video), help: .setting(.video, valueName: "spec")) var video: String?
    @Option(name: .setting(.ladderKbps), help: .setting(.ladderKbps, valueName: "kbps,...")) var ladderKbps: NumberList?
    @Option(name: .setting(.segmentDurationS), help: .setting(.segmentDurationS)) var segmentDurationSeconds: Double?
    @Option(name: .setting(.segments), help: .setting(.segments, valueName: "n"), transform: OptionParsing.segmentCount) var segments: Int?
    @Option(name: .setting(.firstLevel), help: .setting(.firstLevel, valueName: "level")) var firstLevel: Int?
    @Option(name: .setting(.profile), help: .setting(.profile, valueName: "name")) var profile: String?
    @Option(name: .setting(.targetLatencyS), help: .setting(.targetLatencyS)) var targetLatencySeconds: Double?
    @Option(name: .setting(.liveDurationS), help: .setting(.liveDurationS)) var liveDurationSeconds: Double?
    @Option(name: .setting(.warmupS), help: .setting(.warmupS)) var warmupSeconds: Double?
    @Option(name: .setting(.warmupKbps), help: .setting(.warmupKbps)) var warmupKbps: Double?
    @Option(name: .setting(.catchup), help: .setting(.catchup, valueName: "dashjs5|dashjs3")) var catchup: String?
    @Option(name: .setting(.catchupMinDriftS), help: .setting(.catchupMinDriftS)) var catchupMinDriftSeconds: Double?
    @Option(name: .setting(.maxBufferS), help: .setting(.maxBufferS)) var maxBufferSeconds: Double?
    @Flag(name: .setting(.noAbandon), help: .setting(.noAbandon)) var noAbandon = false
    @Flag(name: .setting(.checkEveryStep), help: .setting(.checkEveryStep)) var checkEveryStep = false
    @Option(name: .setting(.replace), help: .setting(.replace, valueName: "rule")) var replace: String?
    @Option(name: .setting(.bandwidthMultiplier), help: .setting(.bandwidthMultiplier)) var bandwidthMultiplier: Double?
    @Option(name: .setting(.estimator), help: .setting(.estimator, valueName: "spec")) var estimator: String?
    @Option(name: .setting(.qoe), help: .setting(.qoe, valueName: "model")) var qoe: String?
    @Option(name: .setting(.gammaP), help: .setting(.gammaP)) var gammaP: Double?
    @Option(name: .setting(.rebufferPenalty), help: .setting(.rebufferPenalty)) var rebufferPenalty: Double?
    @Option(name: .setting(.smoothnessPenalty), help: .setting(.smoothnessPenalty)) var smoothnessPenalty: Double?
    @Option(name: .setting(.switchPenalty), help: .setting(.switchPenalty)) var switchPenalty: Double?
    @Option(name: .setting(.traceFormat), help: .setting(.traceFormat, valueName: "format")) var traceFormat: String?
    @Option(name: .setting(.mahimahiBinMs), help: .setting(.mahimahiBinMs)) var mahimahiBinMilliseconds: Int?
    @Option(name: .setting(.param), help: .setting(.param, valueName: "id.key=value")) var params: [String] = []
    @Option(name: .setting(.paramGrid), help: .setting(.paramGrid, valueName: "file")) var paramGrid: String?
    @Option(name: .setting(.seed), help: .setting(.seed), transform: OptionParsing.seed) var seed: UInt64?
    @Option(name: .setting(.luaInstructions), help: .setting(.luaInstructions)) var luaInstructions: Int?
    @Option(name: .setting(.luaMemoryMb), help: .setting(.luaMemoryMb)) var luaMemoryMegabytes: Int?
    @Flag(name: .setting(.verbose), help: .setting(.verbose)) var verbose = false

    /// The options given, by setting: the library checks them against the table.
    var settings: ExperimentSettings {
        let given: [Setting: SettingValue?] = [
            .video: video.map(SettingValue.text), .ladderKbps: ladderKbps.map { .numbers($0.values) },
            .segmentDurationS: segmentDurationSeconds.map(SettingValue.number), .segments: segments.map(SettingValue.integer),
            .firstLevel: firstLevel.map(SettingValue.integer),
            .profile: profile.map(SettingValue.text), .targetLatencyS: targetLatencySeconds.map(SettingValue.number),
            .liveDurationS: liveDurationSeconds.map(SettingValue.number), .warmupS: warmupSeconds.map(SettingValue.number),
            .warmupKbps: warmupKbps.map(SettingValue.number), .catchup: catchup.map(SettingValue.text),
            .catchupMinDriftS: catchupMinDriftSeconds.map(SettingValue.number), .maxBufferS: maxBufferSeconds.map(SettingValue.number),
            .noAbandon: noAbandon ? .flag(true) : nil, .checkEveryStep: checkEveryStep ? .flag(true) : nil,
            .replace: replace.map(SettingValue.text), .bandwidthMultiplier: bandwidthMultiplier.map(SettingValue.number),
            .estimator: estimator.map(SettingValue.text), .qoe: qoe.map(SettingValue.text), .gammaP: gammaP.map(SettingValue.number),
            .rebufferPenalty: rebufferPenalty.map(SettingValue.number), .smoothnessPenalty: smoothnessPenalty.map(SettingValue.number),
            .switchPenalty: switchPenalty.map(SettingValue.number), .traceFormat: traceFormat.map(SettingValue.text),
            .mahimahiBinMs: mahimahiBinMilliseconds.map(SettingValue.integer), .param: params.isEmpty ? nil : .texts(params),
            .paramGrid: paramGrid.map(SettingValue.text), .seed: seed.map(SettingValue.seed),
            .luaInstructions: luaInstructions.map(SettingValue.integer), .luaMemoryMb: luaMemoryMegabytes.map(SettingValue.integer),
            .verbose: verbose ? .flag(true) : nil,
        ]
        var settings = ExperimentSettings()
        for case let (setting, value?) in given { settings[setting] = value }
        return settings
    }

    /// The video, its warnings printed.
    func resolveVideo() throws(InputError) -> Video {
        let (video, warnings) = try settings.resolveVideoWithWarnings()
        warnings.forEach { CommandFailure.warn($0.commandLineText) }
        return video
    }
}
