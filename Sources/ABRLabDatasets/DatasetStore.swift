import ABRLab
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The local cache of datasets: `$ABRLAB_DATASETS`, else `$XDG_CACHE_HOME/abrlab/datasets`, else
/// `~/.cache/abrlab/datasets`. Each dataset lies in a folder named by its id (`pensieve/test/`)
/// that appears in one rename once every file is verified, so it is there whole or not at all.
public struct DatasetStore: Sendable {
    public static let variable = "ABRLAB_DATASETS"
    /// Written into an installed dataset's folder: the registry hash of what was installed.
    public static let markerName = ".abrlab-dataset"

    public let root: URL
    /// What named the cache (`ABRLAB_DATASETS`, `XDG_CACHE_HOME`, `HOME`), for messages; `nil`
    /// for a root given directly.
    public let origin: String?

    public init(root: URL, origin: String? = nil) {
        self.root = root.standardizedFileURL
        self.origin = origin
    }

    /// The cache the environment names (see the type's comment).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let path = environment[Self.variable], !path.isEmpty {
            self.init(root: URL(fileURLWithPath: path), origin: Self.variable)
        } else if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            self.init(root: URL(fileURLWithPath: cache).appendingPathComponent("abrlab/datasets"), origin: "XDG_CACHE_HOME")
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            self.init(root: URL(fileURLWithPath: home).appendingPathComponent(".cache/abrlab/datasets"), origin: "HOME")
        }
    }

    /// Makes the cache's folder; a file in its place is named, with what set the path.
    package func makeRoot() throws(InputError) {
        try LocalFile.makeFolder(root, what: origin.map { " (the dataset cache, from \($0))" } ?? " (the dataset cache)")
    }

    /// Where `dataset` is installed (whether or not it is).
    public func folder(of dataset: Dataset) -> URL {
        root.appendingPathComponent(dataset.id, isDirectory: true)
    }

    /// What an input option reads: the dataset's input file, or its folder.
    public func inputPath(of dataset: Dataset) -> String {
        let folder = folder(of: dataset)
        return (dataset.input.map { folder.appendingPathComponent($0) } ?? folder).path
    }

    /// Where an unfinished fetch keeps the files it has (partial ones end in `.part`).
    package func stagingFolder(of dataset: Dataset) -> URL {
        root.appendingPathComponent(".staging", isDirectory: true).appendingPathComponent(Self.flat(dataset.id), isDirectory: true)
    }

    /// The lock file one fetch of `dataset` holds at a time.
    package func lockFile(of dataset: Dataset) -> URL {
        root.appendingPathComponent(".locks", isDirectory: true).appendingPathComponent(Self.flat(dataset.id) + ".lock")
    }

    /// Where the dataset stands in the cache.
    public enum Status: Equatable, Sendable {
        case missing
        /// Installed from another version of the registry entry (its hash differs).
        case otherVersion(installed: String)
        case installed
    }

    /// Whether the dataset was installed, and from this registry's entry; files are not re-hashed
    /// (``verify(_:)`` does that).
    public func status(of dataset: Dataset) -> Status {
        let marker = folder(of: dataset).appendingPathComponent(Self.markerName)
        guard let text = try? String(contentsOf: marker, encoding: .utf8) else { return .missing }
        let installed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return installed == dataset.sha256 ? .installed : .otherVersion(installed: installed)
    }

    /// The dataset's folder when it holds what abrlab did not install: something there without
    /// a marker, other than an empty folder. `fetch` never replaces it, and `list` says so.
    public func foreignCopy(of dataset: Dataset) -> URL? {
        let folder = folder(of: dataset)
        var status = stat()
        guard lstat(folder.path, &status) == 0, !hasMarker(folder) else { return nil }
        let empty = status.st_mode & S_IFMT == S_IFDIR && (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        return empty ? nil : folder
    }

    /// Whether `folder` holds abrlab's marker (readable or not): abrlab installed it.
    package func hasMarker(_ folder: URL) -> Bool {
        var status = stat()
        return lstat(folder.appendingPathComponent(Self.markerName).path, &status) == 0
    }

    /// A file of an installed dataset that is not as the registry says.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            case missing
            case size(found: Int)
            case hash(found: String)
            /// A file the registry does not list.
            case extra
            /// The copy was installed from another version of the registry entry.
            case version(installed: String)
            /// A folder, FIFO, device or socket where the file should be (`a folder`).
            case notAFile(String)
            /// There, but reading it failed (the system's reason).
            case unreadable(String)
        }

        public let path: String
        public let kind: Kind

        public var description: String {
            switch kind {
            case .missing: "\(path): missing"
            case .size(let found): "\(path): \(found) bytes, not the registry's"
            case .hash(let found): "\(path): SHA-256 \(found) is not the registry's"
            case .extra: "\(path): not a file of the dataset"
            case .version(let installed): "\(path): installed from another version of the registry entry (\(installed))"
            case .notAFile(let kind): "\(path): is \(kind), not a file"
            case .unreadable(let why): "\(path): cannot read: \(why)"
            }
        }
    }

    /// Every file of the installed dataset re-hashed against the registry: the problems, in path
    /// order (none when the copy is exact).
    public func verify(_ dataset: Dataset) -> [Problem] {
        let folder = folder(of: dataset)
        var problems: [Problem] = []
        for file in dataset.files {
            // The size first (stat), then the hash a block at a time: a huge file is never read whole.
            switch LocalFile.examine(folder.appendingPathComponent(file.path).path, bytes: file.bytes) {
            case .sha256(file.sha256): break
            case .sha256(let found): problems.append(Problem(path: file.path, kind: .hash(found: found)))
            case .size(let size): problems.append(Problem(path: file.path, kind: .size(found: size)))
            case .missing: problems.append(Problem(path: file.path, kind: .missing))
            case .folder: problems.append(Problem(path: file.path, kind: .notAFile("a folder")))
            case .special(let kind): problems.append(Problem(path: file.path, kind: .notAFile(kind)))
            case .unreadable(let why): problems.append(Problem(path: file.path, kind: .unreadable(why)))
            }
        }
        let listed = Set(dataset.files.map(\.path))
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory)
            let hidden = relative.split(separator: "/").contains { $0.hasPrefix(".") }
            if !isDirectory.boolValue, !hidden, !listed.contains(relative) { problems.append(Problem(path: relative, kind: .extra)) }
        }
        if case .otherVersion(let installed) = status(of: dataset) {
            problems.append(Problem(path: Self.markerName, kind: .version(installed: installed)))
        }
        return problems.sorted { $0.path < $1.path }
    }

    /// An id as one file name: `pensieve/test` → `pensieve%2Ftest`.
    package static func flat(_ id: String) -> String {
        id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }
}
