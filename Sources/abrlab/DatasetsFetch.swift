import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabFetch
import ArgumentParser
import Foundation

extension Abrlab {
    struct DatasetsFetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download datasets, verify every file's SHA-256 and install each whole.",
            discussion: """
                Files come from each dataset's upstream (a public repository at a fixed commit), or with \
                --from from a mirror laid out like the dataset root (pensieve/cooked_test_traces/..., \
                sabre/mmsys18/3Glogs/...): a folder, or an http(s) or file URL. An interrupted fetch \
                resumes where it stopped. A file whose size or SHA-256 is not the registry's is refused \
                naming it, and nothing is installed. Nothing is read past a file's registry size: a mirror \
                file of another size, a folder, a FIFO or a device, and an HTTP Content-Length that \
                disagrees are refused before anything is written. A download slower than --speed-limit \
                bytes a second over --speed-time seconds (default: 1024 over 30) is ended. A folder in the \
                cache that abrlab did not install is never replaced or deleted: fetch refuses naming it. \
                A host that cannot be resolved (offline) fails the fetch within seconds; --from a mirror \
                works without the network. Two fetches of one dataset wait for each other. More: \
                docs/datasets.md.

                Example:
                  abrlab datasets fetch pensieve/test pensieve/video pensieve/model
                  abrlab datasets fetch sabre/3g --from /srv/mirror/datasets
                """
        )

        @Argument(help: "Dataset ids (see abrlab datasets list).")
        var ids: [String]

        @Option(help: "A mirror laid out like the dataset root: a folder or an http(s) or file URL.")
        var from: String?

        @Flag(help: "Fetch again even when installed (after verify found a changed file).")
        var force = false

        @OptionGroup var limits: DatasetsFetchLimits

        @Flag(name: .shortAndLong, help: "No progress bar.")
        var quiet = false

        func run() throws {
            try CommandFailure.guarding {
                let registry = try DatasetRegistry.shipped()
                let datasets = try ids.map { id throws(InputError) in try registry.dataset(id) }
                let source = try from.map { text throws(InputError) in try DatasetSource(from: text) } ?? .upstream
                let lowSpeed = try limits.lowSpeed()
                for dataset in datasets {
                    try Self.fetch(dataset, source: source, force: force, quiet: quiet, lowSpeed: lowSpeed)
                }
            }
        }

        /// Fetches one dataset, drawing its bar, and says where it is.
        static func fetch(_ dataset: Dataset, source: DatasetSource, force: Bool, quiet: Bool, lowSpeed: LowSpeedLimit) throws(InputError) {
            var fetcher = DatasetFetcher(store: DatasetStore(), source: source)
            fetcher.lowSpeed = lowSpeed
            var bar = ByteProgressBar(label: dataset.id, quiet: quiet)
            fetcher.onProgress = { bar.update(done: $0.doneBytes, total: $0.totalBytes) }
            let outcome: DatasetFetcher.Outcome
            do {
                outcome = try fetcher.fetch(dataset, force: force)
            } catch {
                bar.finish()
                throw error.about(.file("\(dataset.id): \(error.file)"), line: error.line)
            }
            bar.finish()
            let folder = fetcher.store.inputPath(of: dataset)
            switch outcome {
            case .alreadyInstalled:
                Console.print("\(dataset.id): already installed in \(folder)")
            case .installed:
                Console.print("\(dataset.id): installed \(DatasetText.files(dataset.files.count)) (\(DatasetText.size(dataset.totalBytes))), verified, in \(folder)")
            }
        }
    }
}
