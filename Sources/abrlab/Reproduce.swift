import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFetch
import ArgumentParser
import Foundation

extension Abrlab {
    struct Reproduce: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reproduce",
            abstract: "Rerun a reference comparison and print abrlab's figures beside the reference's own.",
            discussion: """
                pensieve: BB, RobustMPC and the pretrained agent on Pensieve's 142 test traces, mean total \
                linear QoE against the figures of Pensieve's own code. sabre: Sabre's five algorithms on its \
                example network and its 3G and 4G sets, time-average score and played bitrate against the \
                figures sabre.py prints. Datasets not installed are fetched first (from upstream, or --from a \
                mirror; --speed-limit and --speed-time as for abrlab datasets fetch), and every installed file \
                is re-hashed: each one that differs is named. A row agrees when abrlab's figure, rounded to the reference's digits, is the \
                reference's; any other row makes the exit status 1. The reference figures and how they were \
                obtained: Datasets/reproduce/NAME.json.

                Example:
                  abrlab reproduce pensieve
                  abrlab reproduce sabre --from /srv/mirror/datasets
                """
        )

        @Argument(help: "pensieve or sabre.")
        var name: String

        @Option(help: "A mirror laid out like the dataset root, for datasets not installed: a folder or an http(s) or file URL.")
        var from: String?

        @OptionGroup var limits: DatasetsFetchLimits

        @Option(help: "Keep the runs' result folders here (default: a temporary folder, removed after).")
        var out: String?

        @Option(name: .setting(.jobs), help: .setting(.jobs, in: "reproduce"))
        var jobs: String?

        @Flag(name: .shortAndLong, help: "No progress bars.")
        var quiet = false

        func run() throws {
            let rows = try CommandFailure.guarding {
                let reproduction = try Reproduction.shipped(name)
                let source = try from.map { text throws(InputError) in try DatasetSource(from: text) } ?? .upstream
                let lowSpeed = try limits.lowSpeed()
                let jobs = try Setting.jobs.value(jobs)?.integer ?? ProcessInfo.processInfo.activeProcessorCount
                var runner = ReproductionRunner(reproduction: reproduction, store: DatasetStore(), source: source)
                runner.jobs = jobs
                let quiet = quiet
                runner.onFetch = { dataset, fetcher in
                    Console.error("abrlab: fetching \(dataset.id)\n")
                    fetcher.lowSpeed = lowSpeed
                    var bar = ByteProgressBar(label: dataset.id, quiet: quiet)
                    fetcher.onProgress = { bar.update(done: $0.doneBytes, total: $0.totalBytes) }
                }
                runner.onRun = { run in
                    if !quiet { Console.error("abrlab: running \(run.label): \(run.strategies.joined(separator: " "))\n") }
                }
                let folder = out.map { URL(fileURLWithPath: $0) }
                    ?? FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-reproduce-\(UUID().uuidString)")
                defer { if out == nil { try? FileManager.default.removeItem(at: folder) } }
                let results = try runner.run(into: folder)
                Console.print(reproduction.title)
                var table = [["run", "strategy", "reference from", "metric", "reference", "abrlab", "agreement"]]
                for result in results {
                    table.append([
                        result.row.run, result.row.strategy, result.row.source, result.row.metric.rawValue, result.row.value, result.abrlab,
                        result.agrees ? "agrees" : "DIFFERS",
                    ])
                }
                Console.print(RankedTable.layout(table, leftColumns: 4), terminator: "")
                let agreeing = results.filter(\.agrees).count
                Console.print("\(agreeing) of \(results.count) rows agree, to the reference's printed digits; figures and provenance: \(Reproduction.folder)/\(name).json")
                return (agreeing, results.count)
            }
            if rows.0 < rows.1 {
                throw CommandFailure.exit("reproduce \(name): \(rows.1 - rows.0) of \(rows.1) rows disagree with the reference")
            }
        }
    }
}
