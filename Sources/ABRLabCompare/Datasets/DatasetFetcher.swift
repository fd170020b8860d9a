import ABRLab
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Fetches datasets into a ``DatasetStore``: each file into a staging folder (partial files kept,
/// so an interrupted fetch resumes), each checked against the registry's size and SHA-256, and
/// the dataset moved into place in one rename only once all are. A file that fails its check is
/// refused naming it, and nothing is installed. One fetch of a dataset at a time (a lock file).
public struct DatasetFetcher {
    /// How far a fetch has got, for a progress bar.
    public struct Progress: Sendable {
        public let dataset: String
        public let doneBytes: Int
        public let totalBytes: Int
    }

    public enum Outcome: Equatable, Sendable {
        case alreadyInstalled
        /// Installed; `transferredBytes` were read from the source this time.
        case installed(transferredBytes: Int)
    }

    public let store: DatasetStore
    public let source: DatasetSource
    /// Files read at once.
    public var connections = 4
    /// Called with the bytes done so far, one call at a time.
    public var onProgress: (Progress) -> Void = { _ in }

    public init(store: DatasetStore, source: DatasetSource) {
        self.store = store
        self.source = source
    }

    /// Fetches `dataset` unless installed from this registry entry (`force`: even then, to
    /// replace a copy ``DatasetStore/verify(_:)`` found changed).
    public func fetch(_ dataset: Dataset, force: Bool = false) throws(InputError) -> Outcome {
        let lock = try DatasetLock(store.lockFile(of: dataset))
        defer { withExtendedLifetime(lock) {} }
        if !force, store.status(of: dataset) == .installed { return .alreadyInstalled }
        let staging = store.stagingFolder(of: dataset)
        try Self.makeFolder(staging)
        let tally = Tally(dataset: dataset, report: onProgress)
        let transfers = TransferPool()
        // A few files at once: a dataset of a thousand small files is mostly round trips.
        let results = Parallel.map(dataset.files.count, threads: connections) { index in
            Result { () throws(InputError) -> Int in
                try stage(dataset.files[index], of: dataset, in: staging, tally: tally, transfers: transfers)
            }
        }
        var transferred = 0
        for result in results { transferred += try result.get() }
        try install(dataset, from: staging)
        return .installed(transferredBytes: transferred)
    }

    /// Puts `file` verified into the staging folder, unless it is there already; returns the
    /// bytes read from the source.
    private func stage(_ file: Dataset.File, of dataset: Dataset, in staging: URL, tally: Tally, transfers: TransferPool) throws(InputError) -> Int {
        let target = staging.appendingPathComponent(file.path)
        try Self.makeFolder(target.deletingLastPathComponent())
        if Self.size(of: target.path) == file.bytes, Self.hash(of: target.path) == file.sha256 {
            tally.add(file.bytes)
            return 0
        }
        let partial = target.path + ".part"
        let transfer = transfers.take()
        defer { transfers.give(transfer) }
        let read = try receive(file, of: dataset, into: partial, transfer: transfer, tally: tally)
        try check(partial, against: file)
        guard rename(partial, target.path) == 0 else { throw InputError(file: target.path, "cannot move into place: \(String(cString: strerror(errno)))") }
        return read
    }

    /// Reads `file` onto the end of `partial` (created when missing) and returns the bytes read.
    private func receive(_ file: Dataset.File, of dataset: Dataset, into partial: String, transfer: HTTPTransfer, tally: Tally) throws(InputError) -> Int {
        var offset = Self.size(of: partial) ?? 0
        if offset > file.bytes {
            unlink(partial)
            offset = 0
        }
        if offset == 0, !FileManager.default.createFile(atPath: partial, contents: nil) {
            throw InputError(file: partial, "cannot create the partial download")
        }
        tally.add(offset)
        var read = 0
        let report = { (count: Int) in
            read += count
            tally.add(count)
        }
        switch try source.location(of: file, in: dataset) {
        case .file(let path):
            try Self.copy(path, named: file.path, from: offset, onto: partial, onBytes: report)
        case .web(let url):
            guard offset < file.bytes else { return 0 }
            _ = try transfer.fetch(url, into: partial, offset: offset, onBytes: report)
        }
        return max(0, read)
    }

    /// Refuses a downloaded file that is not the registry's, removing it so a retry starts afresh.
    private func check(_ partial: String, against file: Dataset.File) throws(InputError) {
        let size = Self.size(of: partial) ?? -1
        let found = size == file.bytes ? Self.hash(of: partial) : nil
        guard found != file.sha256 else { return }
        unlink(partial)
        let what = found.map { "SHA-256 \($0), not the registry's \(file.sha256)" } ?? "\(size) bytes, not the registry's \(file.bytes)"
        throw InputError(file: file.path, "\(what); refused, nothing installed")
    }

    /// Marks the staged dataset with its registry hash and renames it into place, replacing a
    /// copy of another version.
    private func install(_ dataset: Dataset, from staging: URL) throws(InputError) {
        // Files a fetch of another version of the entry left behind are not the dataset's.
        let listed = Set(dataset.files.map(\.path))
        let enumerator = FileManager.default.enumerator(atPath: staging.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = staging.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, !listed.contains(relative) {
                unlink(path)
            }
        }
        let marker = staging.appendingPathComponent(DatasetStore.markerName)
        guard FileManager.default.createFile(atPath: marker.path, contents: Data((dataset.sha256 + "\n").utf8)) else {
            throw InputError(file: marker.path, "cannot write the dataset's marker")
        }
        let folder = store.folder(of: dataset)
        try Self.makeFolder(folder.deletingLastPathComponent())
        if FileManager.default.fileExists(atPath: folder.path) {
            // Another version, or a copy without a marker: moved aside first, so the folder
            // never holds a mix.
            let aside = staging.deletingLastPathComponent().appendingPathComponent(DatasetStore.flat(dataset.id) + ".old")
            try? FileManager.default.removeItem(at: aside)
            guard rename(folder.path, aside.path) == 0 else {
                throw InputError(file: folder.path, "cannot replace the installed copy: \(String(cString: strerror(errno)))")
            }
            try? FileManager.default.removeItem(at: aside)
        }
        guard rename(staging.path, folder.path) == 0 else {
            throw InputError(file: folder.path, "cannot install: \(String(cString: strerror(errno)))")
        }
    }

    /// Appends `path`'s bytes from `offset` to `partial`.
    private static func copy(_ path: String, named name: String, from offset: Int, onto partial: String, onBytes: (Int) -> Void) throws(InputError) {
        guard let input = FileHandle(forReadingAtPath: path) else { throw InputError(file: path, "not in the mirror (\(name))") }
        guard let output = FileHandle(forWritingAtPath: partial) else { throw InputError(file: partial, "cannot write the partial download") }
        defer {
            try? input.close()
            try? output.close()
        }
        input.seek(toFileOffset: UInt64(offset))
        output.seekToEndOfFile()
        while true {
            let block = input.readData(ofLength: 1 << 20)
            if block.isEmpty { break }
            output.write(block)
            onBytes(block.count)
        }
    }

    private static func makeFolder(_ folder: URL) throws(InputError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw InputError(file: folder.path, "cannot create the folder: \(error.localizedDescription)")
        }
    }

    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    static func hash(of path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hex($0) }
    }
}

/// The bytes a fetch has so far, shared by its workers; reports go out one at a time.
private final class Tally: @unchecked Sendable {
    // Sound: `report` is called only while `done` is locked, so one call at a time.
    private let done = Mutex(0)
    private let dataset: Dataset
    private let report: (DatasetFetcher.Progress) -> Void

    init(dataset: Dataset, report: @escaping (DatasetFetcher.Progress) -> Void) {
        self.dataset = dataset
        self.report = report
    }

    func add(_ bytes: Int) {
        done.withLock { done in
            done += bytes
            report(DatasetFetcher.Progress(dataset: dataset.id, doneBytes: done, totalBytes: dataset.totalBytes))
        }
    }
}

/// HTTP transfers for a fetch's workers, each used by one worker at a time.
private final class TransferPool: Sendable {
    private let idle = Mutex<[HTTPTransfer]>([])

    func take() -> HTTPTransfer {
        idle.withLock { $0.popLast() } ?? HTTPTransfer()
    }

    func give(_ transfer: HTTPTransfer) {
        idle.withLock { $0.append(transfer) }
    }
}
