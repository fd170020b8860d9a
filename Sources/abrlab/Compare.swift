import ABRLab
import ABRLabCompare
import ArgumentParser
import Foundation

extension Abrlab {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Run strategies over a trace set, score QoE, print a ranked table and write CSV.",
            discussion: """
                With no arguments, runs every script in Strategies/ plus the native conservative strategy \
                (in place of Strategies/conservative.lua, which plays the same) over the shipped trace set \
                (Traces/default) and video (Traces/video.json). --strategies and --baseline take the ids \
                abrlab strategies list shows; a folder named in --strategies that holds a script with a \
                native id gets a warning.

                Only strategies with no failed session are ranked, on the traces they all completed (equal \
                scores share a rank); the others are listed after them, each summarised on the traces it \
                completed, with its counts, and never shrink the ranked ones' traces. The baseline comparison \
                pairs only traces both completed. A strategy that cannot play the video at all (a script's \
                check(video) says why) is refused when named, and skipped with a warning when a folder holds it.

                Writes sessions.csv, segments.csv, transitions.csv, summary.csv, ranked.json and run.json to \
                --out, and formats.csv when the video's levels carry formats (HLS format tags or the audio \
                preset), and buffer_timeline.csv with --buffer-timeline; docs/output.md describes every column. \
                The folder belongs to the run: another run into it while it runs is refused, files the previous \
                run listed in its run.json and this run does not write are removed, a folder with result files no \
                run.json lists is refused, and so is a file system root or home directory that is not empty. A run \
                that fails leaves the earlier results as they were and no files of its own but the checkpoints \
                --resume continues. \
                Results are identical whatever --jobs is. Exits non-zero when any session failed.

                --param id.key=a,b,c sweeps a parameter: every setting runs as its own row, \
                id[key=value,...] (swept keys in name order; the first varies slowest). \
                --param-grid FILE lists settings instead, one per CSV line under an id.key \
                header, for sweeps that are not a product; its rows run in file order, named by \
                the keys whose value differs between them, each combined with every --param setting. \
                --shard K/N runs one of N shards (contiguous trace ranges balanced by segments \
                to play); abrlab merge puts the shard folders back together, byte for byte as \
                the unsharded run. Output grows in --out/.abrlab-partial with checkpoints; \
                --resume continues a killed run and ends with the same bytes.

                Examples:
                  abrlab compare
                  abrlab compare --strategies bba Strategies/my_rule.lua --traces Traces/3g --baseline conservative
                  abrlab compare --strategies bola --param bola.gp=3,5,8 --segments csv.gz
                  abrlab compare --strategies bola robust_mpc --param-grid sweep.csv
                  abrlab compare --shard 0/4 --out shards/0 --resume
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

        @Flag(help: "Print only errors and warnings: no progress bar, table or closing line.")
        var quiet = false

        @Flag(name: .customLong("buffer-timeline"), help: "Also write buffer_timeline.csv: every session's buffer indicator sampled at 10 Hz.")
        var bufferTimeline = false

        @Option(name: .customLong("rank-by"), help: ArgumentHelp("Rank strategies by their mean or median session QoE.", valueName: "mean|median"))
        var rankBy: String = RankMetric.mean.rawValue

        @Option(help: ArgumentHelp("How the ranked table is printed: text, or json (the contents of ranked.json).", valueName: "text|json"))
        var table: String = "text"

        @Option(name: .customLong("segments-format"), help: ArgumentHelp(
            "segments.csv as csv, csv.gz (segments.csv.gz), csv.zst (segments.csv.zst) or none (default: csv); --segments csv.zst says the same.", valueName: "format"))
        var segmentsFormat: String?

        @Option(help: ArgumentHelp(
            "Run only shard K of N (K from 0), a contiguous range of traces balanced by segments to play; merge the shards' folders with abrlab merge. Default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX when set.",
            valueName: "K/N"))
        var shard: String?

        @Option(name: .customLong("shard-count"), help: "Number of shards when the index comes from JOB_COMPLETION_INDEX (or overrides Slurm's task count).")
        var shardCount: Int?

        @Flag(help: "Continue the interrupted run in --out with the same arguments, redoing only work not yet checkpointed.")
        var resume = false

        @Option(name: .customLong("checkpoint-s"), help: "Seconds between checkpoints of finished work (each syncs the output files to disk).")
        var checkpointSeconds: Double = 2

        @Option(help: ArgumentHelp(
            "Play each strategy row on each trace as a group of N players sharing the trace's link (profiles default and sabre; docs/shared-link.md); adds groups.csv and group, player columns. 1 plays alone, as without it.",
            valueName: "N"))
        var players: Int?

        @Option(name: .customLong("stagger-s"), help: ArgumentHelp("Seconds between the starts of a group's players: player k starts at (k-1)*S.", valueName: "S"))
        var staggerSeconds: Double?

        @Option(help: ArgumentHelp(
            "Instead of strategy rows, one group per trace whose players take these strategies in turn (ids or scripts, comma-separated), repeated up to --players (default: one each).",
            valueName: "A,B,..."))
        var mix: String?

        @Option(help: ArgumentHelp(
            "How a group's link is divided among its players in a data phase: equally, or in proportion to --weights (default: equal).",
            valueName: "equal|weighted"))
        var share: String?

        @Option(help: ArgumentHelp(
            "With --share weighted: the players' weights, positive numbers, comma-separated; player k takes the k-th, the list repeated up to --players as --mix is.",
            valueName: "w1,w2,..."))
        var weights: String?

        func run() throws {
            try CommandFailure.guarding {
                let comparison = Comparison(try request())
                let outcome = try OutputClaim.holding(out, keepsPartial: resume, quiet: quiet) { _ in
                    var progress: ProgressBar?
                    return try comparison.run(naming: \.flag, warn: CommandFailure.warn) { done, total in
                        if progress == nil { progress = ProgressBar(total: total, quiet: quiet) }
                        progress?.update(done: done)
                    }
                }
                if table == "json" {
                    Console.print(String(decoding: outcome.ranking.json(), as: UTF8.self))
                } else if !quiet {
                    Console.print(RankedTable.render(outcome.ranking), terminator: "")
                    let shard = comparison.request.shard
                    Console.print(shard.map { "shard \($0): wrote \(outcome.sessionCount) of \(outcome.totalSessionCount) sessions to \(out)/" }
                        ?? "wrote \(outcome.totalSessionCount) sessions to \(out)/")
                }
                if outcome.failureCount > 0 {
                    throw CommandFailure.exit("\(outcome.failureCount) session(s) failed; see the error column of sessions.csv")
                }
            }
        }

        /// The per-segment output's format, from `--segments-format` or a format given to `--segments`.
        private func resolveSegmentsFormat() throws(InputError) -> SegmentsFormat {
            let given = try segmentsFormat.map { (text) throws(InputError) -> SegmentsFormat in
                guard let format = SegmentsFormat(rawValue: text) else {
                    throw InputError(file: "--segments-format", "unknown format '\(text)'; choose \(SegmentsFormat.choices)")
                }
                return format
            }
            let settings = experiment.settings
            if let given, let other = settings.segmentsOutputFormat, given != other {
                throw InputError(file: "--segments", "'\(other.rawValue)' contradicts --segments-format \(given.rawValue)")
            }
            return given ?? settings.segmentsOutputFormat ?? .csv
        }

        /// The options as the library's request, checked as far as options alone can be.
        private func request() throws -> Comparison.Request {
            guard jobs >= 1, jobs <= OptionParsing.maximumJobs else { throw InputError(file: "--jobs", "must be from 1 to \(OptionParsing.maximumJobs)") }
            guard let rankMetric = RankMetric(rawValue: rankBy) else {
                throw InputError(file: "--rank-by", "'\(rankBy)' is not mean or median")
            }
            guard ["text", "json"].contains(table) else { throw InputError(file: "--table", "'\(table)' is not text or json") }
            guard checkpointSeconds >= 0, checkpointSeconds <= 86_400 else { throw InputError(file: "--checkpoint-s", "must be from 0 to 86400 s") }
            var request = Comparison.Request()
            request.segments = try resolveSegmentsFormat()
            request.shard = try ShardSelection.resolve(option: shard, count: shardCount, environment: ProcessInfo.processInfo.environment)
            request.strategies = strategies
            request.traces = traces
            request.settings = experiment.settings
            request.baseline = baseline
            request.out = out
            request.jobs = jobs
            request.rankBy = rankMetric
            request.bufferTimeline = bufferTimeline
            request.resume = resume
            request.checkpointInterval = .milliseconds(Int64(checkpointSeconds * 1000))
            request.players = players
            request.staggerSeconds = staggerSeconds
            if let mix {
                let strategies = mix.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !strategies.contains(where: \.isEmpty) else { throw InputError(file: "--mix", "'\(mix)' names an empty strategy; list ids or scripts separated by commas") }
                request.mix = strategies
            }
            if let share {
                guard let mode = LinkShare.Mode(rawValue: share) else { throw InputError(file: "--share", "'\(share)' is not equal or weighted") }
                request.share = mode
            }
            if let weights {
                request.weights = try weights.split(separator: ",", omittingEmptySubsequences: false).map { text throws(InputError) -> Double in
                    guard !text.isEmpty else { throw InputError(file: "--weights", "'\(weights)' names an empty weight; list positive weights separated by commas") }
                    guard let weight = Double(text) else {
                        throw InputError(file: "--weights", "'\(text)' is not a number; list positive weights separated by commas")
                    }
                    return weight
                }
            }
            return request
        }
    }
}
