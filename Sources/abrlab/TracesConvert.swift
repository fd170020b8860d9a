import ABRLab
import ABRLabCompare
import ArgumentParser
import Foundation

extension Abrlab {
    struct TracesConvert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert traces between pensieve, sabre, mahimahi and csv formats.",
            discussion: """
                CSV keeps every value exactly; Pensieve drops latency; Mahimahi resamples into delivery opportunities.

                Example:
                  abrlab traces convert ../shared/datasets/pensieve/cooked_test_traces --to csv --out-dir /tmp/norway-csv
                """
        )

        @Argument(help: "Trace files, folders or glob patterns.")
        var traces: [String]

        @Option(help: "Format to write: pensieve, sabre, mahimahi or csv.")
        var to: String

        @Option(help: "Folder to write into (created when missing).")
        var outDir: String

        @Option(name: .setting(.traceFormat), help: .setting(.traceFormat, in: "traces convert"))
        var traceFormat: String?

        func run() throws {
            try CommandFailure.guarding {
                let target = try OptionParsing.traceFormat(to, option: "--to")
                let source = try Setting.traceFormat.value(traceFormat)?.text.flatMap(TraceFormat.init(rawValue:))
                let set = try TraceSetResolver(format: source).load(traces)
                try OptionParsing.writeTraces(set.traces, format: target, folder: outDir)
            }
        }
    }
}
