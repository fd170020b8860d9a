import ABRLab
import Foundation

/// The SHA-256 of everything that decides a comparison's output bytes: abrlab's version, each
/// strategy row (script bytes, effective parameters), every trace file's name and bytes (with
/// the options that read them), the video's content, the profile, QoE model, seed, baseline, Lua limits and which files are written.
/// Shards of one plan carry the same fingerprint; `merge` refuses shards whose fingerprints
/// differ, and `--resume` refuses to continue another plan's partial run.
struct PlanFingerprint {
    /// The plan (of this shard: its traces are not used; `traces` stands for all of them).
    var plan: ExperimentPlan
    /// Every trace of the whole plan, in run order, with its file's hash (from `run.json`'s
    /// inputs, so each file is read once).
    var traces: [RunInputs.Trace]
    var traceReader: TraceSetResolver
    /// A Lua QoE script's path (`--qoe FILE.lua`); its bytes count.
    var qoeScript: String?
    var baseline: String?
    var rankBy: RankMetric
    var luaLimits: String
    var layout: ResumableResults.Layout

    var hex: String {
        var bytes: [UInt8] = []
        func line(_ text: String) { bytes += Array((text + "\n").utf8) }
        line("abrlab-plan 1")
        line("version \(ABRLabVersion.current)")
        for strategy in plan.strategies {
            let script = strategy.source == "native" ? "native" : FileManager.default.contents(atPath: strategy.source).map { SHA256.hex($0) } ?? "unreadable"
            let values = strategy.params.map { "\($0.key)=\($0.value) (\($0.value.typeNameWithArticle))" }
            line("strategy \(strategy.id) \(script) \(values.joined(separator: " "))")
        }
        line("traces format=\(traceReader.format?.rawValue ?? "detected") mahimahi_bin_ms=\(traceReader.options.mahimahiBinMilliseconds)")
        for trace in traces {
            line("trace \(trace.name) \(trace.file?.sha256 ?? "unreadable")")
        }
        let video = plan.video
        line("video \(video.name) \(video.segmentDurationSeconds) \(video.segmentCount)")
        line("ladder \(video.ladder.map { "\($0.bitrate):\($0.label)" }.joined(separator: " "))")
        line("formats \(video.formats.map { $0 ?? "-" }.joined(separator: " "))")
        for segment in 0..<video.segmentCount {
            line((0..<video.levelCount).map { String(video.sizeBytes(segment: segment, level: $0)) }.joined(separator: " "))
        }
        let profile = plan.emulator.profile
        line("profile \(profile)")
        line("segments \(plan.emulator.segmentCount(for: video)) transitions \(plan.emulator.recordsTransitions)")
        line("qoe \(plan.qoe)")
        if let qoeScript {
            line("qoe_script \(plan.qoeName) \(FileManager.default.contents(atPath: qoeScript).map { SHA256.hex($0) } ?? "unreadable")")
        }
        line("seed \(plan.seed) baseline \(baseline ?? "-") rank_by \(rankBy.rawValue) lua \(luaLimits)")
        line("files \(layout.files.map(\.name).joined(separator: " "))")
        return SHA256.hex(bytes)
    }
}
