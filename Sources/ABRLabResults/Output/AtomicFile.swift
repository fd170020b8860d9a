import ABRLab
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name and renamed into place only when committed, so an
/// interrupted run never leaves a half-written file under the real name.
///
/// The temporary names of all unfinished files of the process are kept, so a signal handler can
/// remove them (``removeUnfinished()``) before the process exits.
public final class AtomicFile {
    public let url: URL
    private let temporaryURL: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var committed = false

    /// Marks the temporary names: `.NAME.tmp-PID-UUID`.
    public static let temporaryMarker = ".tmp-"

    /// A file to appear at `url`, written meanwhile in `temporaryFolder` (by default `url`'s
    /// folder; it must be on the same file system).
    public init(_ url: URL, temporaryFolder: URL? = nil) throws(InputError) {
        self.url = url
        temporaryURL = (temporaryFolder ?? url.deletingLastPathComponent()).appendingPathComponent(
            ".\(url.lastPathComponent)\(Self.temporaryMarker)\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        )
        guard Self.unfinished.add(temporaryURL.path),
              FileManager.default.createFile(atPath: temporaryURL.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: temporaryURL) else {
            Self.unfinished.remove(temporaryURL.path)
            throw InputError(file: url.path, "cannot create the file")
        }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    public func write(_ text: String) throws(InputError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    public func write(bytes: [UInt8]) throws(InputError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered and moves the file to its real name, replacing any file there in
    /// one step.
    public func commit() throws(InputError) {
        try flush()
        do { try handle.close() } catch {
            throw InputError(file: url.path, "cannot write the file: \(error.localizedDescription)")
        }
        guard rename(temporaryURL.path, url.path) == 0 else {
            throw InputError(file: url.path, "cannot move the file into place: \(String(cString: strerror(errno)))")
        }
        committed = true
        Self.unfinished.remove(temporaryURL.path)
    }

    /// Writes what is buffered, so that a full disk shows before any file of a run moves into
    /// place and ``commit()`` has only to rename.
    public func flush() throws(InputError) {
        var offset = 0
        while offset < buffer.count {
            // write(2) rather than FileHandle, whose errors do not say "No space left on device".
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(handle.fileDescriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                if written < 0, errno == EINTR { continue }
                throw InputError(file: url.path, "cannot write the file: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        if !committed {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporaryURL)
            Self.unfinished.remove(temporaryURL.path)
        }
    }

    /// Removes the temporary file of every unfinished `AtomicFile` of the process and refuses
    /// new ones; returns how many were removed. For signal handlers, just before the process exits.
    @discardableResult
    public static func removeUnfinished() -> Int {
        unfinished.closeAndTake().reduce(0) { count, path in unlink(path) == 0 ? count + 1 : count }
    }

    /// Whether `name` is the temporary name of an `AtomicFile`, for any final name.
    public static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: temporaryMarker, options: .backwards) else { return false }
        let owner = name[marker.upperBound...].prefix { $0 != "-" }
        return marker.lowerBound > name.index(after: name.startIndex) && Int32(owner) != nil
    }

    /// Whether `name` is the temporary name of an `AtomicFile` for `finalName`, and the id of the
    /// process that made it.
    public static func temporaryOwner(of name: String, finalName: String) -> Int32? {
        let prefix = "." + finalName + temporaryMarker
        guard name.hasPrefix(prefix) else { return nil }
        return Int32(name.dropFirst(prefix.count).prefix { $0 != "-" })
    }

    private static let unfinished = UnfinishedPaths()
}

/// The temporary paths of unfinished files, shared by all threads of the process.
private final class UnfinishedPaths: Sendable {
    private let state = Mutex((paths: Set<String>(), closed: false))

    /// Adds `path`; false once the process is shutting down.
    func add(_ path: String) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.paths.insert(path)
            return true
        }
    }

    func remove(_ path: String) {
        state.withLock { _ = $0.paths.remove(path) }
    }

    func closeAndTake() -> [String] {
        state.withLock { state in
            state.closed = true
            defer { state.paths = [] }
            return state.paths.sorted()
        }
    }
}
