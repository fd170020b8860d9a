import ABRLab
import ABRLabCompare
import ABRLabFormats
import ABRLabResults
import ArgumentParser
import Foundation

extension Abrlab {
    struct TracesInfo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show duration, bandwidth percentiles and outages per trace and for the whole set.",
            discussion: """
                Statistics are time-weighted over one pass through each trace.

                Example:
                  abrlab traces info Traces/3g
                """
        )

        @Argument(help: "Trace files, folders or glob patterns.")
        var traces: [String]

        @Option(name: .setting(.traceFormat), help: .setting(.traceFormat, in: "traces info"))
        var traceFormat: String?

        @Flag(help: "Print CSV instead of a table.")
        var csv = false

        func run() throws {
            try CommandFailure.guarding {
                let format = try Setting.traceFormat.value(traceFormat)?.text.flatMap(TraceFormat.init(rawValue:))
                let set = try TraceSetResolver(format: format).load(traces)
                set.warnings.forEach { CommandFailure.warn($0.commandLineText) }
                var rows = [["trace", "duration_s", "periods", "mean_kbps", "p10_kbps", "median_kbps", "p90_kbps", "outage_s", "latency_ms"]]
                for trace in set.traces { rows.append(Self.row(trace.name, TraceStatistics(trace))) }
                rows.append(Self.row("(all \(set.traces.count))", TraceStatistics(traces: set.traces)))
                if csv {
                    for row in rows { Console.print(CSVRow.line(row), terminator: "") }
                } else {
                    Console.print(RankedTable.layout(rows, leftColumns: 1), terminator: "")
                }
            }
        }

        static func row(_ name: String, _ stats: TraceStatistics) -> [String] {
            [
                name, RankedTable.number(stats.durationSeconds, digits: 1), String(stats.periods),
                RankedTable.number(stats.meanKbps, digits: 0), RankedTable.number(stats.p10Kbps, digits: 0),
                RankedTable.number(stats.medianKbps, digits: 0), RankedTable.number(stats.p90Kbps, digits: 0),
                RankedTable.number(stats.outageSeconds, digits: 1),
                stats.meanLatencySeconds.map { RankedTable.number($0 * 1000, digits: 0) } ?? "-",
            ]
        }
    }
}
