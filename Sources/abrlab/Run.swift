import ABRLab
import ABRLabCompare
import ArgumentParser
import Foundation

extension Abrlab {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Play one strategy over one trace and print the per-segment timeline and state transitions.",
            discussion: """
                Segments and levels are numbered from 1, as in the Lua API and every CSV file.

                Example:
                  abrlab run --strategy conservative --trace Traces/3g/3g_1.csv
                  abrlab run --strategy Strategies/bba.lua --trace ../shared/datasets/pensieve/cooked_test_traces/norway_bus_1 \\
                      --profile pensieve --video ../shared/datasets/pensieve/video_sizes \\
                      --ladder-kbps 300,750,1200,1850,2850,4300 --segment-duration-s 4
                """
        )

        @Option(help: "A Lua script or a native id.")
        var strategy: String = "conservative"

        @Option(help: "One trace file.")
        var trace: String

        @OptionGroup var experiment: ExperimentOptions

        func run() throws {
            try CommandFailure.guarding {
                let (plan, outcome) = try SingleSession.run(strategy: strategy, trace: trace, options: experiment)
                guard let result = outcome.result, let metrics = outcome.metrics else {
                    throw CommandFailure.exit(outcome.error ?? "the session failed")
                }
                Console.print(Self.timeline(result, scores: outcome.segmentScores), terminator: "")
                Console.print("")
                Console.print(Self.transitions(result), terminator: "")
                Console.print("")
                Console.print(
                    "QoE \(RankedTable.number(metrics.qoeTotal, digits: 4)) (\(plan.qoeName), \(RankedTable.number(metrics.qoeMean, digits: 4)) per segment)"
                        + "  bitrate \(RankedTable.number(metrics.averageBitrateKbps, digits: 0)) kbps"
                        + "  rebuffer \(RankedTable.number(metrics.rebufferSeconds, digits: 3)) s  stalls \(metrics.stallCount)"
                        + "  switches \(metrics.switchCount)  startup \(RankedTable.number(metrics.startupSeconds, digits: 3)) s"
                        + (metrics.liveLatencySeconds.map { "  latency \(RankedTable.number($0, digits: 3)) s" } ?? "")
                        + (metrics.playbackRateDeviation.map { "  rate deviation \(RankedTable.number($0, digits: 3))" } ?? "")
                )
            }
        }

        static func timeline(_ result: SessionResult, scores: [Double]) -> String {
            let live = result.liveChunkSeconds != nil
            var rows = [["seg", "level", "kbps", "start s", "dl s", "tput kbps", "buf before", "buf after", "rebuf s", "wait s", "buffer", "estimate kbps", "qoe"]
                + (live ? ["latency s", "rate"] : [])]
            // A live warm-up's rows are in no score.
            let warmupRows = result.warmup?.rowCount ?? 0
            for (row, (segment, score)) in zip(result.segments, scores).enumerated() {
                let liveCells = segment.live.map { [RankedTable.number($0.latencySeconds, digits: 3), RankedTable.number($0.playbackRate, digits: 3)] } ?? []
                rows.append([
                    String(segment.index + 1), String(segment.level + 1), RankedTable.number(segment.bitrateKbps, digits: 0),
                    RankedTable.number(segment.downloadStartSeconds, digits: 3), RankedTable.number(segment.downloadTimeSeconds, digits: 3),
                    RankedTable.number(segment.throughputKbps, digits: 0), RankedTable.number(segment.bufferBeforeSeconds, digits: 3),
                    RankedTable.number(segment.bufferAfterSeconds, digits: 3), RankedTable.number(segment.rebufferSeconds, digits: 3),
                    RankedTable.number(segment.waitSeconds, digits: 3), segment.bufferState.rawValue,
                    RankedTable.number(segment.estimateKbps, digits: 0), row < warmupRows ? "warm-up" : RankedTable.number(score, digits: 3),
                ] + liveCells)
            }
            return RankedTable.layout(rows, leftColumns: 0)
        }

        static func transitions(_ result: SessionResult) -> String {
            var rows = [["time s", "action", "from -> to"]]
            for transition in result.transitions {
                rows.append([
                    RankedTable.number(SessionResult.sessionSeconds(of: transition), digits: 3), transition.action.description,
                    "\(transition.from) -> \(transition.to)",
                ])
            }
            return RankedTable.layout(rows, leftColumns: 3)
        }
    }
}
