import ABRLab
import ABRLabDatasets
import ABRLabLua
import ABRLabResults
import ABRLabSettings
import Foundation

/// One compare, from what a user asked for to the files in its output folder: strategies and
/// traces resolved (the shipped defaults when none are named), the plan built and checked,
/// this shard's sessions run on `jobs` workers into resumable results, and the ranking, the
/// run's record (`run.json`) and its warnings written. The caller holds the output folder
/// (``FolderLock``) and says things its own way: warnings and progress come back through
/// ``run(naming:warn:progress:)``, settings named by the caller's `naming`.
public struct Comparison: Sendable {
    /// What to compare, as a user gives it: arguments and settings, nothing resolved yet.
    public struct Request: Sendable {
        /// Lua scripts, folders of them, native ids and ids of scripts in `Strategies/`; empty:
        /// the shipped folder plus the native `conservative`.
        public var strategies: [String] = []
        /// Trace files, folders or glob patterns; empty: the shipped default set.
        public var traces: [String] = []
        public var settings = ExperimentSettings()
        /// The strategy the others are compared against, trace by trace.
        public var baseline: String?
        public var out = "results"
        public var jobs = 1
        public var rankBy = RankMetric.mean
        public var segments = SegmentsFormat.csv
        public var bufferTimeline = false
        /// This process's shard of the run; nil runs it whole.
        public var shard: Shard?
        /// Continue the interrupted run in `out`, redoing only work not yet checkpointed.
        public var resume = false
        public var checkpointInterval = Duration.seconds(2)
        /// Players sharing each trace's link in a group; `nil` (or 1 without a mix) plays every
        /// session alone, byte for byte as without it.
        public var players: Int?
        /// Seconds between the starts of a group's players.
        public var staggerSeconds: Double?
        /// Strategies seated in turn in one group per trace, replacing the strategy rows.
        public var mix: [String] = []
        /// How a group's link is divided; `nil` is equal sharing.
        public var share: LinkShare.Mode?
        /// Each seat's weight under weighted sharing, repeated like `mix`.
        public var weights: [Double]?
        /// Write the dashjs strategies' decision records to `dashjs-records.jsonl` (DashJSRecords).
        public var dashjsRecords = false

        public init() {}
    }

    /// What a finished run gives back beside its files.
    public struct Outcome: Sendable {
        public let ranking: Ranking
        public let failureCount: Int
        /// Sessions this run (or shard) wrote.
        public let sessionCount: Int
        /// Sessions of the whole run, every shard's.
        public let totalSessionCount: Int
        /// What the ranked table's numbers come from.
        public let source: RankedTable.Source
    }

    public let request: Request

    public init(_ request: Request) {
        self.request = request
    }

    /// Runs the comparison (or this process's shard of it) into `request.out`, which the caller
    /// holds. `warn` gets each warning once, before any session runs; `progress` the sessions
    /// done of those this run plays.
    public func run(
        naming: (Setting) -> String, warn: (String) -> Void = { _ in }, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> Outcome {
        var settings = request.settings
        // run.json records the trace sets as named, beside the files they resolved to.
        settings[.traces] = .texts(request.traces.isEmpty ? [Defaults.traceSet] : request.traces)
        let shard = request.shard
        // Every trace of the plan is hashed in every shard (the record is the plan's, not the
        // shard's), so that starts first and runs while the rest of the plan loads.
        let traceReader = try settings.traceSetResolver()
        if request.traces.isEmpty { try Defaults.requireExisting(Defaults.traceSet, setting: .traces) }
        let entries = try traceReader.entries(request.traces.isEmpty ? [Defaults.traceSet] : request.traces)
        let pendingInputs = PendingRunInputs(traces: entries, jobs: request.jobs)
        try request.checkGrouping()
        let resolver = try settings.strategyResolver()
        if request.strategies.isEmpty, request.mix.isEmpty { try Defaults.requireExisting(Defaults.strategiesFolder, setting: .strategies) }
        let strategyArguments = !request.mix.isEmpty ? request.mixArguments
            : request.strategies.isEmpty ? [Defaults.strategiesFolder, "conservative"] : request.strategies
        let (resolved, strategyWarnings) = try resolver.resolveWithWarnings(strategyArguments, baseline: request.baseline)
        let baseline = request.baseline.map(StrategyResolver.strategyID(forArgument:))
        if let baseline, !resolved.contains(where: { $0.id == baseline }) {
            let rows = resolved.filter { $0.id.hasPrefix(baseline + "[") }.map(\.id)
            throw InputError(setting: .baseline, "'\(baseline)' is swept; name one of its rows: \(rows.joined(separator: ", "))")
        }
        let shared = try settings.resolveSessions()
        let (video, videoWarnings, emulator) = (shared.video, shared.videoWarnings, shared.emulator)
        // A strategy that cannot play this video at all is refused or skipped before any session.
        let fit = try VideoFitCheck.check(
            resolved, arguments: strategyArguments + (baseline.map { [$0] } ?? []), setting: RunSetting(emulator: emulator, video: video)
        )
        let records = try DashJSRecords(request, strategies: fit.kept)
        let descriptors = records?.descriptors ?? fit.kept
        let strategyCount = descriptors.count
        let grouping = try request.grouping(strategies: descriptors, profile: emulator.profile)
        let sessionsPerTrace = grouping.map { $0.players * (request.mix.isEmpty ? strategyCount : 1) } ?? strategyCount
        let traceRange = Shard.partition(
            weights: Array(repeating: sessionsPerTrace * emulator.segmentCount(for: video), count: entries.count), count: shard?.count ?? 1
        )[shard?.index ?? 0]
        // Only this shard's traces are read; the partition and fingerprint need just the files.
        let traceSet = try traceReader.load(entries[traceRange], threads: request.jobs)
        let plan = ExperimentPlan(
            strategies: descriptors, traces: traceSet.traces, video: video,
            emulator: emulator, qoe: shared.qoe, seed: settings.seed,
            customQoE: shared.customQoE, grouping: grouping
        )
        try plan.validate(requiresTraces: shard == nil)
        let layout = ResumableResults.Layout(
            segments: request.segments, formats: video.formats.contains { $0 != nil }, timeline: request.bufferTimeline, groups: grouping != nil
        )
        let plannedFingerprint = PlanFingerprint(
            plan: plan, settings: settings, traceReader: traceReader,
            qoeScript: settings.isScriptedQoE ? settings.qoe : nil, baseline: baseline, rankBy: request.rankBy,
            luaLimits: settings.luaLimitsDescription, layout: layout
        )
        let inputs = pendingInputs.inputs(videoSpec: settings.video, video: video)
        // Said whatever else the caller silences, and recorded. The plan's own come first, then
        // this shard's traces', so merged shards list them as the unsharded run does. The
        // default run leaves the Lua conservative.lua out by design; a skipped strategy changes
        // what the results hold, so it is always said.
        let warnings = RunWarnings(
            plan: videoWarnings + [settings.pensieveShapeWarning(plan)].compactMap { $0 }
                + (request.strategies.isEmpty ? [] : strategyWarnings) + fit.warnings,
            traces: traceSet.warnings, naming: naming
        )
        warnings.lines.forEach(warn)

        let fingerprint = plannedFingerprint.hex(traces: inputs.traces)
        let loadedFiles = LoadedFilesNote(strategies: descriptors, qoe: plan.customQoE)
        let out = URL(fileURLWithPath: request.out)
        if request.resume { try loadedFiles.checkInterruptedRun(in: out) }
        let results = try ResumableResults(
            directory: out, layout: layout,
            identity: "\(PlanFingerprint.formatLine)\nfingerprint \(fingerprint)\nshard \(shard?.description ?? "-")\n", resume: request.resume
        )
        results.checkpointInterval = request.checkpointInterval
        try loadedFiles.record(in: results)
        var report = ExperimentReport(strategyIDs: descriptors.map(\.id))
        report.grouped = grouping != nil
        if results.tracesDone > 0 {
            let completed = results.completedSessions
            try SessionsCSVReader.read(completed.url, length: completed.length, into: &report)
            if grouping != nil {
                let groups = results.completed("groups.csv")
                try GroupsCSVReader.read(groups.url, length: groups.length, into: &report)
            }
        }
        let sessions = results.tracesDone * sessionsPerTrace..<plan.sessionCount
        try PlanRun.run(
            plan, sessions: sessions, jobs: request.jobs, results: results, bufferTimeline: request.bufferTimeline, report: &report,
            progress: { progress($0, sessions.count) }, beforeTraceEnds: { try loadedFiles.record(in: results) },
            firstGroup: traceRange.lowerBound * plan.groupsPerTrace
        )

        let ranking = report.ranking(seed: plan.seed, rankBy: request.rankBy, baselineID: baseline, threads: request.jobs)
        if let records { results.finalFiles.append(records.file(plan: plan)) }
        var manifest = RunManifest(
            plan: plan, settings: settings, descriptors: descriptors, inputs: inputs, parameters: try resolver.parameters(of: descriptors),
            jobs: request.jobs, rankBy: request.rankBy, files: results.fileNames
        )
        manifest.fingerprint = fingerprint
        let paramValues = settings.params.flatMap { $0.split(separator: "=", maxSplits: 1).dropFirst().flatMap { $0.split(separator: ",").map(String.init) } }
        let used = DatasetInput.uses(request.traces + [settings.video] + paramValues)
        manifest.datasets = used.isEmpty ? nil : used
        manifest.warnings = warnings.lines
        if let shard {
            manifest.shard = ShardManifest(
                index: shard.index, count: shard.count, firstTrace: traceRange.lowerBound, traces: traceRange.count,
                totalSessions: entries.count * sessionsPerTrace, sessions: plan.sessionCount, strategies: descriptors.map(\.id),
                baseline: baseline, seed: plan.seed, rankBy: request.rankBy.rawValue,
                files: try results.checksums().mapValues { ShardManifest.File(bytes: $0.bytes, crc32: $0.crc32) }
            )
        }
        try results.finish(ranking: ranking, manifest: try manifest.json())
        return Outcome(
            ranking: ranking, failureCount: report.failureCount, sessionCount: plan.sessionCount,
            totalSessionCount: entries.count * sessionsPerTrace,
            source: RankedTable.Source(
                profile: plan.emulator.profile.name, qoe: plan.qoeName,
                video: RankedTable.Source.Video(
                    spec: settings.video, ladderKbps: plan.video.bitratesKbps, segmentCount: plan.video.segmentCount,
                    segmentDurationSeconds: plan.video.segmentDurationSeconds, segmentsPlayed: manifest.segmentsPlayed
                ),
                traces: settings[.traces]?.texts ?? []
            )
        )
    }
}
