import ABRLab
import ABRLabCompare
import ABRLabFormats
import ArgumentParser
import Foundation

extension Abrlab {
    struct TracesImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Turn raw logs of public datasets into traces.",
            discussion: """
                Sources: norway-hsdpa (Riiser et al. 2013, raw 6-column logs), belgium-4g (van der Hooft et al. \
                2016, same layout), irish-5g (Raca et al. 2020, CSV with Timestamp and DL_bitrate in kbps). \
                Traces already in Pensieve's cooked format, Sabre's JSON or Mahimahi need no import: the loaders \
                read them directly.

                Example:
                  abrlab traces import --from belgium-4g logs/report_bus_0001.log --out-dir Traces/belgium
                """
        )

        @Option(help: ArgumentHelp("Dataset the logs come from: \(TraceImporter.Source.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "source"))
        var from: String

        @Argument(help: "Log files or folders.")
        var logs: [String]

        @Option(help: "Folder to write into (created when missing).")
        var outDir: String

        @Option(help: "Output format: pensieve, sabre, mahimahi or csv.")
        var format: String = "csv"

        func run() throws {
            try CommandFailure.guarding {
                guard let source = TraceImporter.Source(rawValue: from) else {
                    throw InputError(file: "--from", "unknown source '\(from)'; choose one of \(TraceImporter.Source.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                let target = try OptionParsing.traceFormat(format, option: "--format")
                let files = try TraceSetResolver().resolveFiles(logs)
                guard !files.isEmpty else { throw InputError(file: logs.joined(separator: " "), "no log files found") }
                let traces = try files.map { url throws(InputError) in try TraceImporter.importTrace(url, from: source) }
                try OptionParsing.writeTraces(traces, format: target, folder: outDir)
            }
        }
    }
}
