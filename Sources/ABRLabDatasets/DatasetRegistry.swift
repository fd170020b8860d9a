import ABRLab
import Foundation

/// The datasets abrlab knows by id, read from `Datasets/registry.json` (found as `Strategies/`
/// is, see ``Defaults``): a small data file reviewed like code.
public struct DatasetRegistry: Sendable {
    public static let relativePath = "Datasets/registry.json"

    public let datasets: [Dataset]
    /// The file the registry was read from, for messages.
    public let file: String

    private struct Document: Decodable {
        let schema: Int
        let datasets: [Dataset]
    }

    /// Reads and checks the registry at `file`: one schema, unique ids, file paths that stay
    /// inside their dataset's folder, and each entry's hash its files' listing hash.
    public init(contentsOf file: String) throws(InputError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw InputError(file: file, "cannot read the dataset registry: \(error.localizedDescription)")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw InputError(file: file, "not a dataset registry: \(Self.describe(error))")
        }
        guard document.schema == 1 else { throw InputError(file: file, "registry schema \(document.schema) is not 1; this abrlab is older than its registry") }
        try self.init(datasets: document.datasets, file: file)
    }

    /// A registry of `datasets` (tests build small ones); checked as a file's would be.
    public init(datasets: [Dataset], file: String) throws(InputError) {
        var names = Set<String>()
        for dataset in datasets {
            for name in [dataset.id] + dataset.aliases where !names.insert(name).inserted {
                throw InputError(file: file, "the dataset id \(name) is given twice")
            }
            guard Self.isSafe(dataset.base), dataset.input.map(Self.isSafe) ?? true else {
                throw InputError(file: file, "\(dataset.id): base and input must be relative paths without '..'")
            }
            for entry in dataset.files where !Self.isSafe(entry.path) || entry.sha256.count != 64 || entry.bytes < 0 {
                throw InputError(file: file, "\(dataset.id): file \(entry.path) needs a relative path without '..', a size and a 64-digit SHA-256")
            }
            if let input = dataset.input, !dataset.files.contains(where: { $0.path == input }) {
                throw InputError(file: file, "\(dataset.id): its input \(input) is not one of its files")
            }
            let listed = Dataset.listingHash(dataset.files)
            guard listed == dataset.sha256 else {
                throw InputError(file: file, "\(dataset.id): sha256 \(dataset.sha256) is not its files' listing hash \(listed); run scripts/datasets-registry")
            }
        }
        self.datasets = datasets
        self.file = file
    }

    /// The registry abrlab ships, read once.
    public static func shipped() throws(InputError) -> DatasetRegistry {
        try shippedRegistry.get()
    }

    private static let shippedRegistry = Result { () throws(InputError) -> DatasetRegistry in
        let path = Defaults.locate(relativePath)
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(file: path, "the dataset registry is not found; run abrlab from its repository or set \(Defaults.homeVariable) to it")
        }
        return try DatasetRegistry(contentsOf: path)
    }

    /// The dataset named `name` (an id or an alias), or `nil`.
    public func dataset(named name: String) -> Dataset? {
        datasets.first { $0.isNamed(name) }
    }

    /// The dataset named `name`; an unknown name is refused listing the known ids.
    public func dataset(_ name: String) throws(InputError) -> Dataset {
        guard let dataset = dataset(named: name) else { throw unknown(name) }
        return dataset
    }

    /// The error for an id the registry lacks: it names every id it has.
    public func unknown(_ name: String) -> InputError {
        InputError(file: LocalFile.clipped(name), "not a known dataset id; \(didYouMean(name))known: \(knownIDs.joined(separator: ", "))")
    }

    /// `did you mean pensieve/test? `, or nothing when no id is close to `name`.
    public func didYouMean(_ name: String) -> String {
        let closest = closestIDs(to: name)
        return closest.isEmpty ? "" : "did you mean \(closest.joined(separator: " or "))? "
    }

    /// The known ids fewest edits from `name` (a letter added, removed or changed), when at most
    /// a quarter of the id's letters, at least 2, are off: `pensive/test` and `pensieve/tset`
    /// both find `pensieve/test`.
    public func closestIDs(to name: String) -> [String] {
        let typed = Array(name.utf8)
        guard typed.count <= 200 else { return [] }
        let scored = knownIDs.map { ($0, Self.editDistance(typed, Array($0.utf8))) }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best && best <= max(2, $0.0.utf8.count / 4) }.map(\.0)
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Every id and alias, in registry order.
    public var knownIDs: [String] { datasets.flatMap { [$0.id] + $0.aliases } }

    /// Whether `text` could be meant as a dataset id: its first component is one of the
    /// registry's (`pensieve/…`, `sabre/…`), or it is a few letters from an id (`pensive/test`),
    /// so a misspelt id is answered with the known ones.
    public func looksLikeID(_ text: String) -> Bool {
        guard let slash = text.firstIndex(of: "/"), slash != text.startIndex else { return false }
        let prefix = text[..<slash]
        return knownIDs.contains { $0.hasPrefix(prefix + "/") } || !closestIDs(to: text).isEmpty
    }

    private static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context))"
        @unknown default: return String(describing: error)
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
