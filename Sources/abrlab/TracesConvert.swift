import ABRLab
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

        @Option(name: .customLong("trace-format"), help: "Read traces as this format instead of detecting it.")
        var traceFormat: String?

        func run() throws {
            try CommandFailure.guarding {
                guard let target = TraceFormat(rawValue: to) else { throw InputError(file: "--to", "unknown format '\(to)'") }
                let source = try traceFormat.map { name throws(InputError) -> TraceFormat in
                    guard let format = TraceFormat(rawValue: name) else {
                        throw InputError(file: "--trace-format", "unknown trace format '\(name)'")
                    }
                    return format
                }
                let set = try TraceSetResolver(format: source).load(traces)
                let folder = URL(fileURLWithPath: outDir)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let suffix = target.fileExtension.map { "." + $0 } ?? ""
                for trace in set.traces {
                    let file = trace.name.replacingOccurrences(of: "/", with: "_") + suffix
                    try TraceWriter.write(trace, format: target, to: folder.appendingPathComponent(file))
                }
                print("wrote \(set.traces.count) trace(s) to \(outDir)/")
            }
        }
    }
}
