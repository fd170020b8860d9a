import ABRLab
import ABRLabCompare
import ABRLabResults
import ABRLabSettings
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
                  abrlab compare --strategies bola --param bola.gp=3,5,8 --segments-format csv.gz
                  abrlab compare --strategies bola robust_mpc --param-grid sweep.csv
                  abrlab compare --shard 0/4 --out shards/0 --resume
                  abrlab compare --profile pensieve --video ../shared/datasets/pensieve/video_sizes \\
                      --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4 \\
                      --traces ../shared/datasets/pensieve/cooked_test_traces --strategies Strategies/bba.lua
                """
        )

        @Option(name: .setting(.strategies), parsing: .upToNextOption, help: .setting(.strategies))
        var strategies: [String] = []
        @Option(name: .setting(.traces), parsing: .upToNextOption, help: .setting(.traces))
        var traces: [String] = []
        @OptionGroup var experiment: ExperimentOptions
        @Option(name: .setting(.jobs), help: .setting(.jobs)) var jobs: String?
        @Option(name: .setting(.baseline), help: .setting(.baseline)) var baseline: String?
        @Option(name: .setting(.out), help: .setting(.out, showsDefault: false)) var out: String = "results"
        @Flag(name: .setting(.quiet), help: .setting(.quiet)) var quiet = false
        @Flag(name: .setting(.bufferTimeline), help: .setting(.bufferTimeline)) var bufferTimeline = false
        @Option(name: .setting(.rankBy), help: .setting(.rankBy)) var rankBy: String?
        @Option(name: .setting(.table), help: .setting(.table)) var table: String?
        @Option(name: .setting(.segmentsFormat), help: .setting(.segmentsFormat)) var segmentsFormat: String?
        @Option(name: .setting(.shard), help: .setting(.shard)) var shard: String?
        @Option(name: .setting(.shardCount), help: .setting(.shardCount)) var shardCount: String?
        @Flag(name: .setting(.resume), help: .setting(.resume)) var resume = false
        @Flag(name: .setting(.dashjsRecords), help: .setting(.dashjsRecords)) var dashjsRecords = false
        @Option(name: .setting(.checkpointS), help: .setting(.checkpointS)) var checkpointSeconds: String?
        @Option(name: .setting(.players), help: .setting(.players)) var players: String?
        @Option(name: .setting(.staggerS), help: .setting(.staggerS)) var staggerSeconds: String?
        @Option(name: .setting(.mix), help: .setting(.mix)) var mix: String?
        @Option(name: .setting(.share), help: .setting(.share)) var share: String?
        @Option(name: .setting(.weights), help: .setting(.weights)) var weights: String?

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
                    Console.print(RankedTable.render(outcome.ranking, source: outcome.source), terminator: "")
                    let shard = comparison.request.shard
                    Console.print(shard.map { "shard \($0): wrote \(outcome.sessionCount) of \(outcome.totalSessionCount) sessions to \(out)/" }
                        ?? "wrote \(outcome.totalSessionCount) sessions to \(out)/")
                }
                if outcome.failureCount > 0 {
                    throw CommandFailure.exit("\(outcome.failureCount) session(s) failed; see the error column of sessions.csv")
                }
            }
        }

        /// The options as the library's request, checked as far as options alone can be.
        private func request() throws -> Comparison.Request {
            let run = try ExperimentSettings(texts: [
                .jobs: jobs, .rankBy: rankBy, .table: table, .checkpointS: checkpointSeconds, .segmentsFormat: segmentsFormat,
                .share: share, .shardCount: shardCount, .players: players, .staggerS: staggerSeconds,
            ])
            var request = Comparison.Request()
            request.segments = SegmentsFormat(rawValue: run[.segmentsFormat]?.text ?? "") ?? .csv
            request.shard = try ShardSelection.resolve(option: shard, count: run.given[.shardCount]?.integer, environment: ProcessInfo.processInfo.environment)
            request.strategies = strategies
            request.traces = traces
            request.settings = try experiment.settings()
            request.baseline = baseline
            request.out = out
            request.jobs = run.given[.jobs]?.integer ?? ProcessInfo.processInfo.activeProcessorCount
            request.rankBy = RankMetric(rawValue: run[.rankBy]?.text ?? "") ?? .mean
            request.bufferTimeline = bufferTimeline
            request.resume = resume
            request.dashjsRecords = dashjsRecords
            request.checkpointInterval = .milliseconds(Int64((run[.checkpointS]?.number ?? 2) * 1000))
            request.players = run.given[.players]?.integer
            request.staggerSeconds = run.given[.staggerS]?.number
            if let mix {
                let strategies = mix.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !strategies.contains(where: \.isEmpty) else { throw InputError(setting: .mix, "'\(mix)' names an empty strategy; list ids or scripts separated by commas") }
                request.mix = strategies
            }
            if let mode = run.given[.share]?.text.flatMap(LinkShare.Mode.init(rawValue:)) { request.share = mode }
            if let weights {
                request.weights = try weights.split(separator: ",", omittingEmptySubsequences: false).map { text throws(InputError) -> Double in
                    guard !text.isEmpty else { throw InputError(setting: .weights, "'\(weights)' names an empty weight; list positive weights separated by commas") }
                    guard let weight = Double(text) else {
                        throw InputError(setting: .weights, "'\(text)' is not a number; list positive weights separated by commas")
                    }
                    return weight
                }
            }
            return request
        }
    }
}
