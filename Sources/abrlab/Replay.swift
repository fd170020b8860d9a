import ABRLab
import ABRLabPlayerKit
import ABRLabResults
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Abrlab {
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Play sessions in the terminal as a buffering indicator.",
            discussion: """
                Shows a bar coloured by buffer state (empty red … excellent green) with the readiness marker \
                at 15 % of a 30 s target, a fill-rate arrow, the network-activity mark, the trace name and the \
                buffer in seconds. Several traces play as a playlist: once the current session has fetched its \
                last segment, the next one preloads and shows as a second, dimmed bar. When stdout is not a \
                terminal (or with --plain) it prints one plain line per second of session time instead.

                Example:
                  abrlab replay --strategy Strategies/bba.lua --trace Traces/3g/3g_1.csv Traces/4g/4g_1.csv --speed 20
                """
        )

        @Option(help: "A Lua script or a native id.")
        var strategy: String = "conservative"

        @Option(parsing: .upToNextOption, help: "Trace files, played one after another.")
        var trace: [String]

        @OptionGroup var experiment: ExperimentOptions

        @Option(help: "Session seconds per wall-clock second.")
        var speed: Double = 10

        @Flag(help: "Plain lines without colours or cursor movement.")
        var plain = false

        @Option(name: .customLong("timeline-csv"), help: "Also write the 10 Hz buffer time series of every session to this CSV file.")
        var timelineCSV: String?

        func run() throws {
            try CommandFailure.guarding {
                guard speed > 0, speed.isFinite else { throw InputError(file: "--speed", "must be a positive number") }
                let plan = try SingleSession.plan(strategy: strategy, traces: trace, options: experiment)
                var items: [ReplayItem] = []
                for index in plan.traces.indices {
                    let outcome = plan.runSession(index: index)
                    guard let result = outcome.result else { throw CommandFailure.exit(outcome.error ?? "the session failed") }
                    items.append(ReplayItem(title: outcome.traceName, session: result))
                }
                if let timelineCSV { try writeTimelines(items, to: timelineCSV) }
                let terminal = !plain && isatty(STDOUT_FILENO) == 1
                var player = ReplayPlayer(items: items, renderer: BufferBarRenderer(usesANSI: terminal))
                player.play(speed: speed, terminal: terminal)
            }
        }

        private func writeTimelines(_ items: [ReplayItem], to path: String) throws {
            var text = "trace," + BufferTimeline.csvHeader
            for item in items {
                for sample in item.samples { text += CSVRow.line([item.title]).dropLast() + "," + sample.csvLine }
            }
            let file = try AtomicFile(URL(fileURLWithPath: path))
            try file.write(text)
            try file.commit()
        }
    }
}
