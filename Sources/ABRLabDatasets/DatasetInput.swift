import ABRLab
import Foundation

/// Dataset ids where inputs are taken (`--traces pensieve/test`, `--video pensieve/video`,
/// `pensieve-native.model=pensieve/model`, the Python keywords alike), and `ID/FILE` one file of a
/// dataset (`sabre/manifests/mmsys18/bbb4k.json`). The rule: a file or folder
/// that exists under the name is read as before, so a path always wins; otherwise a name the
/// registry knows is the installed dataset's input, and one not yet fetched is refused with the
/// command that fetches it.
public enum DatasetInput {
    /// A dataset an input named, as `run.json` records it.
    public struct Use: Encodable, Equatable, Sendable {
        /// The dataset's id.
        public let id: String
        /// The name as given, when it is not the id (an alias, or `ID/FILE`).
        public let named: String?
        /// The registry's hash of the dataset (``Dataset/sha256``).
        public let sha256: String
        /// What was read: the installed input file or folder.
        public let path: String
    }

    /// What `argument` names: a path to read and, when it is a dataset, the dataset.
    public static func resolve(
        _ argument: String, store: DatasetStore = DatasetStore(), registry: () throws(InputError) -> DatasetRegistry = DatasetRegistry.shipped
    ) throws(InputError) -> (path: String, use: Use?) {
        guard mayBeID(argument), !FileManager.default.fileExists(atPath: argument) else { return (argument, nil) }
        // Without a registry nothing is an id, and the loader names the missing file.
        guard let known = try? registry() else { return (argument, nil) }
        guard let (dataset, file) = Self.dataset(argument, in: known) else {
            if known.looksLikeID(argument) {
                throw InputError(
                    file: LocalFile.clipped(argument),
                    "no such file or folder, nor a known dataset id; \(known.didYouMean(argument))known: \(known.knownIDs.joined(separator: ", "))"
                )
            }
            return (argument, nil)
        }
        switch store.status(of: dataset) {
        case .installed:
            let path = file.map { store.folder(of: dataset).appendingPathComponent($0).path } ?? store.inputPath(of: dataset)
            return (path, Use(id: dataset.id, named: argument == dataset.id ? nil : argument, sha256: dataset.sha256, path: path))
        case .missing:
            if let folder = store.foreignCopy(of: dataset) {
                throw InputError(
                    file: argument,
                    "\(folder.path) was not installed by abrlab (no \(DatasetStore.markerName) marker in it): move it out of the cache (or remove it), then run: abrlab datasets fetch \(dataset.id)"
                )
            }
            throw InputError(file: argument, "dataset not fetched yet; run: abrlab datasets fetch \(dataset.id)")
        case .otherVersion:
            throw InputError(file: argument, "the copy in \(store.folder(of: dataset).path) is another version of the dataset; run: abrlab datasets fetch --force \(dataset.id)")
        }
    }

    /// The dataset `argument` names: an id or alias (its input), or `ID/FILE`, one of its files.
    private static func dataset(_ argument: String, in registry: DatasetRegistry) -> (Dataset, file: String?)? {
        if let dataset = registry.dataset(named: argument) { return (dataset, nil) }
        for dataset in registry.datasets {
            for name in [dataset.id] + dataset.aliases where argument.hasPrefix(name + "/") {
                let file = String(argument.dropFirst(name.count + 1))
                if dataset.files.contains(where: { $0.path == file }) { return (dataset, file) }
            }
        }
        return nil
    }

    /// The path to read for `argument` (see ``resolve(_:store:registry:)``).
    public static func path(_ argument: String) throws(InputError) -> String {
        try resolve(argument).path
    }

    /// The datasets among `arguments` (the run's traces, video and parameter values), each once,
    /// in the order given; arguments that are paths or not datasets are skipped.
    public static func uses(_ arguments: [String]) -> [Use] {
        var seen = Set<String>()
        return arguments.compactMap { try? resolve($0).use }.filter { seen.insert($0.path).inserted }
    }

    /// Only `a/b`-shaped names can be ids: anything else is a path without asking the registry.
    private static func mayBeID(_ argument: String) -> Bool {
        !argument.hasPrefix("/") && !argument.hasPrefix(".") && argument.contains("/") && !argument.hasSuffix("/")
            && !argument.contains(where: { "*?[".contains($0) })
    }
}
