import ABRLab
import ABRLabFormats
import ABRLabLua
import ABRLabResults
import ABRLabSettings
import Foundation

/// The SHA-256 of everything that decides a comparison's output bytes: abrlab's version, each
/// strategy row (script bytes, effective parameters, and the bytes of every file its code is
/// known to read: modules, models, files its parameters name), every trace file's name and bytes
/// (with the options that read them), the video's content, the profile, QoE model (a Lua one's
/// script and modules), seed, baseline, Lua limits, which files are written and how compressed
/// ones are compressed.
/// Shards of one plan carry the same fingerprint; `merge` refuses shards whose fingerprints
/// differ, and `--resume` refuses to continue another plan's partial run.
///
/// The text around the trace list is made first, while the traces are still being hashed on
/// other threads (``PendingRunInputs``); ``hex(traces:)`` puts the list in its place.
public struct PlanFingerprint {
    private let head: [UInt8]
    private let tail: [UInt8]

    /// `plan` is this shard's: its traces are not used.
    /// The first line of the text hashed and of a checkpointed run's identity: plans are
    /// fingerprinted from the settings table's keys since abrlab 0.2.0 (``ExperimentSettings/fingerprintLines``).
    public static let formatLine = "abrlab-plan 2"

    public init(
        plan: ExperimentPlan, settings: ExperimentSettings, traceReader: TraceSetResolver, qoeScript: String?, baseline: String?,
        rankBy: RankMetric, luaLimits: String, layout: ResumableResults.Layout
    ) {
        var head: [UInt8] = []
        func line(_ text: String, to bytes: inout [UInt8]) { bytes += Array((text + "\n").utf8) }
        line(Self.formatLine, to: &head)
        line("version \(ABRLabVersion.current)", to: &head)
        // A script is hashed once, however many rows of a sweep run it.
        var scriptHashes: [String: String] = ["native": "native"]
        for strategy in plan.strategies {
            let script = scriptHashes[strategy.source] ?? {
                let hash = FileManager.default.contents(atPath: strategy.source).map { SHA256.hex($0) } ?? "unreadable"
                scriptHashes[strategy.source] = hash
                return hash
            }()
            let values = strategy.params.map { "\($0.key)=\($0.value) (\($0.value.typeNameWithArticle))" }
            line("strategy \(strategy.id) \(script) \(values.joined(separator: " "))", to: &head)
            for file in strategy.plannedInputs() { line("  \(file.role.rawValue) \(file.name) \(file.sha256)", to: &head) }
        }
        line("traces format=\(traceReader.format?.rawValue ?? "detected") mahimahi_bin_ms=\(traceReader.options.mahimahiBinMilliseconds)", to: &head)
        var tail: [UInt8] = []
        let video = plan.video
        line("video \(video.name) \(video.segmentDurationSeconds) \(video.segmentCount)", to: &tail)
        line("ladder \(video.ladder.map { "\($0.bitrate):\($0.label)" }.joined(separator: " "))", to: &tail)
        line("formats \(video.formats.map { $0 ?? "-" }.joined(separator: " "))", to: &tail)
        for segment in 0..<video.segmentCount {
            line((0..<video.levelCount).map { String(video.sizeBytes(segment: segment, level: $0)) }.joined(separator: " "), to: &tail)
        }
        for setting in settings.fingerprintLines { line("setting \(setting)", to: &tail) }
        line("profile \(ProfileRecord.text(ProfileRecord.value(of: plan.emulator.profile)))", to: &tail)
        line("segments \(plan.emulator.segmentCount(for: video)) transitions \(plan.emulator.recordsTransitions)", to: &tail)
        line("qoe \(ProfileRecord.text(ProfileRecord.value(of: plan.qoe)))", to: &tail)
        if let qoeScript {
            line("qoe_script \(plan.qoeName) \(FileManager.default.contents(atPath: qoeScript).map { SHA256.hex($0) } ?? "unreadable")", to: &tail)
            for file in (plan.customQoE as? LuaQoEModel)?.files.plannedFiles ?? [] {
                line("  \(file.role.rawValue) \(file.name) \(file.sha256)", to: &tail)
            }
        }
        line("seed \(plan.seed) baseline \(baseline ?? "-") rank_by \(rankBy.rawValue) lua \(luaLimits)", to: &tail)
        if let grouping = plan.grouping {
            let seats = switch grouping.seats {
            case .eachStrategy: "each_strategy"
            case .mix(let order): "mix " + order.map(String.init).joined(separator: ",")
            }
            line("groups players \(grouping.players) stagger_s \(grouping.staggerSeconds) seats \(seats)", to: &tail)
            // Equal sharing adds nothing, so the fingerprints of runs from before weights stay.
            if grouping.share != .equal { line("share \(grouping.share)", to: &tail) }
        }
        line("files \(layout.files.map(\.name).joined(separator: " "))", to: &tail)
        line("numbers \(CSVRow.numberForm)", to: &tail)
        // Another library version or level writes other bytes: shards and resumed runs must agree.
        for compression in layout.files.compactMap({ FileCompression(fileName: $0.name) }) {
            line("compression \(compression.identity)", to: &tail)
        }
        self.head = head
        self.tail = tail
    }

    /// The fingerprint, with every trace of the whole plan in run order and its file's hash
    /// (from `run.json`'s inputs, so each file is read once).
    public func hex(traces: [RunInputs.Trace]) -> String {
        var bytes = head
        for trace in traces {
            bytes += Array("trace \(trace.name) \(trace.file?.sha256 ?? "unreadable")\n".utf8)
        }
        bytes += tail
        return SHA256.hex(bytes)
    }
}
