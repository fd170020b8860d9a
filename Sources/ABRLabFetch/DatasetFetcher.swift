import ABRLab
import ABRLabCompare
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
import ABRLabDatasets
#endif

/// Fetches datasets into a ``DatasetStore``: each file into a staging folder (partial files kept,
/// so an interrupted fetch resumes), each checked against the registry's size and SHA-256, and
/// the dataset moved into place in one rename only once all are. A file that fails its check is
/// refused naming it, and nothing is installed. One fetch of a dataset at a time (a lock file).
/// Nothing is read past the registry's size, and a folder in the cache that abrlab did not
/// install is never replaced.
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
    /// A download slower than this is ended.
    public var lowSpeed = LowSpeedLimit.standard
    /// Called with the bytes done so far, one call at a time.
    public var onProgress: (Progress) -> Void = { _ in }

    public init(store: DatasetStore, source: DatasetSource) {
        self.store = store
        self.source = source
    }

    /// Fetches `dataset` unless installed from this registry entry (`force`: even then, to
    /// replace a copy ``DatasetStore/verify(_:)`` found changed).
    public func fetch(_ dataset: Dataset, force: Bool = false) throws(InputError) -> Outcome {
        try store.makeRoot()
        let lock = try DatasetLock(store.lockFile(of: dataset))
        defer { withExtendedLifetime(lock) {} }
        if !force, store.status(of: dataset) == .installed { return .alreadyInstalled }
        // Refused before anything is downloaded, as it would be at the install.
        try refuseForeign(dataset)
        let staging = store.stagingFolder(of: dataset)
        try LocalFile.makeFolder(staging)
        let tally = Tally(dataset: dataset, report: onProgress)
        let transfers = TransferPool(lowSpeed: lowSpeed)
        // A few files at once: a dataset of a thousand small files is mostly round trips.
        let results = Parallel.map(dataset.files.count, threads: connections) { index in
            Result { () throws(InputError) -> Int in
                // After one file failed the others are left: the fetch fails whatever they do.
                guard !tally.stopped else { return 0 }
                do throws(InputError) {
                    return try stage(dataset.files[index], of: dataset, in: staging, tally: tally, transfers: transfers)
                } catch {
                    tally.stop()
                    throw error
                }
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
        try LocalFile.makeFolder(target.deletingLastPathComponent())
        if LocalFile.examine(target.path, bytes: file.bytes) == .sha256(file.sha256) {
            tally.add(file.bytes)
            return 0
        }
        let partial = target.path + ".part"
        let read = try receive(file, of: dataset, into: partial, tally: tally, transfers: transfers)
        try check(partial, against: file)
        guard rename(partial, target.path) == 0 else { throw InputError(file: target.path, "cannot move into place: \(LocalFile.errorText(errno))") }
        return read
    }

    /// Reads `file` onto the end of `path` (created when missing) and returns the bytes read.
    private func receive(_ file: Dataset.File, of dataset: Dataset, into path: String, tally: Tally, transfers: TransferPool) throws(InputError) -> Int {
        let location = try source.location(of: file, in: dataset)
        if case .web(let url) = location { try HostCheck.check(url, mirrorPath: dataset.base + "/" + file.path) }
        // A partial file longer than the file is not its start.
        var status = stat()
        if stat(path, &status) == 0, Int(status.st_size) > file.bytes { unlink(path) }
        let partial = try PartialFile(path)
        tally.add(partial.length)
        var read = 0
        let report = { (count: Int) in
            read += count
            tally.add(count)
        }
        switch location {
        case .file(let mirror):
            try Self.copy(mirror, file: file, onto: partial, onBytes: report)
        case .web(let url) where partial.length < file.bytes:
            let transfer = transfers.take()
            defer { transfers.give(transfer) }
            let offset = partial.length
            if try transfer.fetch(url, into: partial, fileBytes: file.bytes, lowSpeed: lowSpeed, onBytes: report) == .rangeNotSatisfiable {
                try? partial.close()
                unlink(path)
                throw InputError(
                    file: url.absoluteString, "HTTP 416 Range Not Satisfiable: the server has no bytes from \(offset), the registry's file has \(file.bytes); refused"
                )
            }
        case .web:
            break
        }
        try partial.close()
        return max(0, read)
    }

    /// Refuses a downloaded file that is not the registry's, removing it so a retry starts afresh.
    private func check(_ partial: String, against file: Dataset.File) throws(InputError) {
        let what: String
        switch LocalFile.examine(partial, bytes: file.bytes) {
        case .sha256(file.sha256): return
        case .sha256(let found): what = "SHA-256 \(found), not the registry's \(file.sha256)"
        case .size(let size): what = "\(size) bytes, not the registry's \(file.bytes)"
        case .missing: what = "0 bytes, not the registry's \(file.bytes)"
        case .unreadable(let why): throw InputError(file: partial, "cannot read the partial download: \(why)")
        case .folder, .special: throw InputError(file: partial, "is not a regular file; remove it and fetch again")
        }
        unlink(partial)
        throw InputError(file: file.path, "\(what); refused, nothing installed")
    }

    /// Refuses when the dataset's folder holds what abrlab did not install: it is never deleted.
    private func refuseForeign(_ dataset: Dataset) throws(InputError) {
        guard let folder = store.foreignCopy(of: dataset) else { return }
        throw InputError(
            file: folder.path,
            "was not installed by abrlab (no \(DatasetStore.markerName) marker in it), so fetch leaves it as it is: move it out of the cache (or remove it), then run: abrlab datasets fetch \(dataset.id)"
        )
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
        let marker = try PartialFile(staging.appendingPathComponent(DatasetStore.markerName).path)
        try marker.restart()
        try marker.append(contentsOf: Array((dataset.sha256 + "\n").utf8))
        try marker.close()
        let folder = store.folder(of: dataset)
        try LocalFile.makeFolder(folder.deletingLastPathComponent())
        try refuseForeign(dataset)
        var status = stat()
        if lstat(folder.path, &status) == 0 {
            if store.hasMarker(folder) {
                // Another version abrlab installed: moved aside first, so the folder never
                // holds a mix.
                let aside = staging.deletingLastPathComponent().appendingPathComponent(DatasetStore.flat(dataset.id) + ".old")
                try? FileManager.default.removeItem(at: aside)
                guard rename(folder.path, aside.path) == 0 else {
                    throw InputError(file: folder.path, "cannot replace the installed copy: \(LocalFile.errorText(errno))")
                }
                try? FileManager.default.removeItem(at: aside)
            } else {
                // An empty folder (``DatasetStore/foreignCopy(of:)``): nothing to lose.
                rmdir(folder.path)
            }
        }
        guard rename(staging.path, folder.path) == 0 else {
            throw InputError(file: folder.path, "cannot install: \(LocalFile.errorText(errno))")
        }
    }

    /// Appends the mirror file `path`'s bytes past the partial file's end, up to the registry's
    /// size: a mirror file of another size, a folder, a FIFO or a device is refused unread.
    private static func copy(_ path: String, file: Dataset.File, onto partial: PartialFile, onBytes: (Int) -> Void) throws(InputError) {
        let descriptor: Int32
        switch LocalFile.openRegular(path) {
        case .success(let opened):
            guard opened.size == file.bytes else {
                close(opened.descriptor)
                throw InputError(file: path, "is \(opened.size) bytes in the mirror, not the registry's \(file.bytes); refused unread")
            }
            descriptor = opened.descriptor
        case .failure(.missing): throw InputError(file: path, "not in the mirror (\(file.path))")
        case .failure(.folder): throw InputError(file: path, "is a folder in the mirror, where the file \(file.path) should be")
        case .failure(.special(let kind)): throw InputError(file: path, "is \(kind) in the mirror, not a regular file; refused unread")
        case .failure(.unreadable(let why)): throw InputError(file: path, "cannot read: \(why)")
        // Not answers of `openRegular`.
        case .failure(.size), .failure(.sha256): throw InputError(file: path, "cannot read")
        }
        defer { close(descriptor) }
        var offset = partial.length
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw InputError(file: path, "cannot read: \(LocalFile.errorText(errno))") }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while offset < file.bytes {
            let wanted = min(block.count, file.bytes - offset)
            let count: Int
            switch block.withUnsafeMutableBytes({ LocalFile.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }) {
            case .success(let read): count = read
            case .failure(let failure): throw InputError(file: path, "cannot read: \(LocalFile.errorText(failure.code))")
            }
            // Shorter than it was: the check names the size.
            if count == 0 { break }
            try partial.append(contentsOf: block[..<count])
            offset += count
            onBytes(count)
        }
    }
}

/// The bytes a fetch has so far, shared by its workers; reports go out one at a time.
private final class Tally: @unchecked Sendable {
    // Sound: `report` is called only while `done` is locked, so one call at a time.
    private let done = Mutex(0)
    private let failed = Atomic(false)
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

    /// Whether a file failed: the fetch fails, and the files not yet started are left.
    var stopped: Bool { failed.load(ordering: .relaxed) }

    func stop() { failed.store(true, ordering: .relaxed) }
}

/// HTTP transfers for a fetch's workers, each used by one worker at a time.
private final class TransferPool: Sendable {
    private let idle = Mutex<[HTTPTransfer]>([])
    private let lowSpeed: LowSpeedLimit

    init(lowSpeed: LowSpeedLimit) {
        self.lowSpeed = lowSpeed
    }

    func take() -> HTTPTransfer {
        idle.withLock { $0.popLast() } ?? HTTPTransfer(lowSpeed: lowSpeed)
    }

    func give(_ transfer: HTTPTransfer) {
        idle.withLock { $0.append(transfer) }
    }
}
