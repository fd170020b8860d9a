import ABRLab
import ArgumentParser
import Foundation

extension Abrlab {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run strategies over a trace set, score QoE, print a ranked table and write CSV.",
            discussion: """
                With no arguments, runs every script in Strategies/ plus the native conservative strategy \
                (in place of Strategies/conservative.lua, which plays the same) over the shipped trace set \
                (Traces/default) and video (Traces/video.json). --strategies and --baseline take the ids \
                abrlab strategies list shows; a folder named in --strategies that holds a script with a \
                native id gets a warning.

                Strategies are summarised on the traces every strategy completed; only strategies with no \
                failed session are ranked (equal scores share a rank), the others are listed after them with \
                their failure counts. The baseline comparison pairs only traces both completed.

                Writes sessions.csv, segments.csv, transitions.csv, summary.csv, ranked.json and run.json to \
                --out, and formats.csv when the video's levels carry formats (HLS format tags or the audio \
                preset), and buffer_timeline.csv with --buffer-timeline; docs/output.md describes every column. \
                The folder belongs to the run: files the previous run listed in its run.json and this run does \
                not write are removed, and a folder with result files no run.json lists is refused. \
                Results are identical whatever --jobs is. Exits non-zero when any session failed.

                Examples:
                  abrlab compare
                  abrlab compare --strategies bba Strategies/my_rule.lua --traces Traces/3g --baseline conservative
                  abrlab compare --profile pensieve --video ../shared/datasets/pensieve/video_sizes \\
                      --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4 \\
                      --traces ../shared/datasets/pensieve/cooked_test_traces --strategies Strategies/bba.lua
                """
        )

        @Option(parsing: .upToNextOption, help: ArgumentHelp(
            "Lua scripts, folders of them, native ids (\(StrategyResolver.nativeIDs)) and ids of scripts in Strategies/.",
            valueName: "strategy"))
        var strategies: [String] = []

        @Option(parsing: .upToNextOption, help: ArgumentHelp(
            "Trace files, folders (searched recursively) or glob patterns.", valueName: "path"))
        var traces: [String] = []

        @OptionGroup var experiment: ExperimentOptions

        @Option(help: "Worker threads (default: the number of cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(help: ArgumentHelp(
            "Strategy to compare the others against, trace by trace (an id, script or native id); added to the strategies when absent.",
            valueName: "strategy"))
        var baseline: String?

        @Option(help: "Output folder, owned by the run (see above).")
        var out: String = "results"

        @Flag(help: "Print only errors.")
        var quiet = false

        @Flag(name: .customLong("buffer-timeline"), help: "Also write buffer_timeline.csv: every session's buffer indicator sampled at 10 Hz.")
        var bufferTimeline = false

        @Option(name: .customLong("rank-by"), help: ArgumentHelp("Rank strategies by their mean or median session QoE.", valueName: "mean|median"))
        var rankBy: String = RankMetric.mean.rawValue

        @Option(help: ArgumentHelp("How the ranked table is printed: text, or json (the contents of ranked.json).", valueName: "text|json"))
        var table: String = "text"

        func run() throws {
            try CommandFailure.guarding {
                let failed = try runComparison()
                if failed > 0 { throw CommandFailure.exit("\(failed) session(s) failed; see the error column of sessions.csv") }
            }
        }

        /// Runs the comparison and returns the number of failed sessions.
        private func runComparison() throws -> Int {
            guard jobs >= 1 else { throw InputError(file: "--jobs", "must be at least 1") }
            guard let rankMetric = RankMetric(rawValue: rankBy) else {
                throw InputError(file: "--rank-by", "'\(rankBy)' is not mean or median")
            }
            guard ["text", "json"].contains(table) else { throw InputError(file: "--table", "'\(table)' is not text or json") }
            let resolver = try experiment.strategyResolver()
            let (descriptors, strategyWarnings) = try resolver.resolveWithWarnings(
                strategies.isEmpty ? [Defaults.strategiesFolder, "conservative"] : strategies, baseline: baseline
            )
            let baseline = baseline.map(StrategyResolver.strategyID(forArgument:))
            let traceSet = try experiment.traceSetResolver()
                .load(traces.isEmpty ? [Defaults.traceSet] : traces)
            if !quiet { traceSet.warnings.forEach { CommandFailure.warn($0.description) } }
            let plan = ExperimentPlan(
                strategies: descriptors, traces: traceSet.traces, video: try experiment.resolveVideo(),
                emulator: try experiment.resolveEmulator(), qoe: try experiment.resolveQoE(), seed: experiment.seed,
                customQoE: try experiment.resolveScriptedQoE()
            )
            try plan.validate()
            if !quiet { experiment.warnIfNotPensieveShaped(plan) }
            let inputs = RunInputs(
                videoSpec: experiment.video, video: plan.video,
                traceFiles: zip(plan.traces, traceSet.files).map { ($0.name, $1) }
            )
            // The default run leaves the Lua conservative.lua out by design (see the discussion above).
            if !quiet, !strategies.isEmpty { strategyWarnings.forEach { CommandFailure.warn($0.description) } }

            let video = plan.video
            let writer = try ResultsWriter(
                directory: URL(fileURLWithPath: out), writesFormats: video.formats.contains { $0 != nil }, writesTimeline: bufferTimeline
            )
            let timeline = bufferTimeline
            var report = ExperimentReport(strategyIDs: descriptors.map(\.id))
            var progress = ProgressBar(total: plan.sessionCount, quiet: quiet)
            var done = 0
            let profileName = plan.emulator.profile.name
            let qoeName = plan.qoeName
            try ExperimentRunner(jobs: jobs).run(plan, prepare: { outcome in
                SessionCSV(outcome: outcome, profile: profileName, qoeModel: qoeName, video: video, bufferTimeline: timeline)
            }, consume: { session in
                try writer.append(session)
                report.add(strategyID: session.strategyID, traceName: session.traceName, metrics: session.metrics, error: session.error)
                done += 1
                progress.update(done: done)
            })

            let ranking = report.ranking(seed: plan.seed, rankBy: rankMetric, baselineID: baseline)
            let manifest = RunManifest(
                plan: plan, descriptors: descriptors, inputs: inputs, parameters: try resolver.parameters(of: descriptors),
                jobs: jobs, rankBy: rankMetric, files: writer.fileNames
            )
            try writer.finish(ranking: ranking, manifest: try manifest.json())
            if table == "json" {
                print(String(decoding: ranking.json(), as: UTF8.self))
            } else if !quiet {
                print(RankedTable.render(ranking), terminator: "")
                print("wrote \(plan.sessionCount) sessions to \(out)/")
            }
            return report.failureCount
        }
    }
}
