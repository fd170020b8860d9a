import ABRLab
import ABRLabCompare
import ABRLabDatasets
import ABRLabResults
import Foundation

/// Runs a ``Reproduction``: fetches the datasets it needs that are not installed, runs each
/// compare into a folder of its own, and sets abrlab's mean beside each reference figure.
public struct ReproductionRunner {
    /// One row's outcome.
    public struct Result: Sendable {
        public let row: Reproduction.Row
        /// abrlab's mean, at the reference's digits.
        public let abrlab: String
        public let agrees: Bool
    }

    public let reproduction: Reproduction
    public let store: DatasetStore
    public let source: DatasetSource
    public var jobs = 1
    /// Each dataset before it is fetched (`nil` when installed already) and its fetcher's progress.
    public var onFetch: (Dataset, inout DatasetFetcher) -> Void = { _, _ in }
    /// Each run before it starts.
    public var onRun: (Reproduction.Run) -> Void = { _ in }

    public init(reproduction: Reproduction, store: DatasetStore, source: DatasetSource) {
        self.reproduction = reproduction
        self.store = store
        self.source = source
    }

    /// Runs everything into `out` (one folder per run) and returns the rows in order.
    public func run(into out: URL) throws -> [Result] {
        let registry = try DatasetRegistry.shipped()
        for id in reproduction.datasetIDs(in: registry) {
            let dataset = try registry.dataset(id)
            if store.status(of: dataset) != .installed {
                var fetcher = DatasetFetcher(store: store, source: source)
                onFetch(dataset, &fetcher)
                do {
                    _ = try fetcher.fetch(dataset, force: true)
                } catch {
                    throw error.about(.file("\(dataset.id): \(error.file)"), line: error.line)
                }
            }
            // A reproduction stands on exact copies: an installed one is re-hashed first.
            let problems = store.verify(dataset)
            if !problems.isEmpty {
                // Every file named, as `datasets verify` names them.
                let count = problems.count == 1 ? "1 file differs" : "\(problems.count) files differ"
                throw InputError(
                    file: dataset.id,
                    "\(count) from the registry: \(problems.map(\.description).joined(separator: "; ")); run: abrlab datasets fetch --force \(dataset.id)"
                )
            }
        }
        var means: [String: [String: [Reproduction.Metric: Double]]] = [:]
        for run in reproduction.runs {
            onRun(run)
            let folder = out.appendingPathComponent(DatasetStore.flat(run.label))
            var request = Comparison.Request()
            request.strategies = run.strategies
            request.traces = run.traces
            request.settings.video = run.video
            request.settings.profile = run.profile
            request.settings.params = run.params
            request.out = folder.path
            request.jobs = jobs
            request.segments = .none
            let lock = try FolderLock(claiming: folder, for: .output)
            defer { lock.release(removingCreatedFolders: false) }
            _ = try Comparison(request).run(naming: { $0.rawValue })
            means[run.label] = try SessionMeans.read(folder.appendingPathComponent("sessions.csv"))
        }
        return reproduction.rows.map { row in
            let value = means[row.run]?[row.strategy]?[row.metric]
            let text = value.map { String(format: "%.\(row.decimals)f", $0) } ?? "-"
            return Result(row: row, abrlab: text, agrees: text == row.value)
        }
    }
}
