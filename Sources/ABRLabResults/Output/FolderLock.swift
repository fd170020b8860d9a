import ABRLab
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run's exclusive claim on a folder: `flock` on `DIR/.abrlab-lock`, held from the start of a
/// `compare` or `merge` to its end, so a second run into the folder refuses at once instead of
/// mixing its files with the first's. The lock file names its holder for that refusal and is
/// removed when the claim ends, so a finished run leaves no trace of it; one left by a killed run
/// holds no lock, and the next run takes it over.
///
/// A lock file unlinked by its holder may still be open in a run that is about to lock it, so a
/// run owns the folder only once the file it locked is still the one at the path.
public final class FolderLock: @unchecked Sendable {
    // Sound: `state`, its one `var`, is read and changed after `init` only under `registry`'s lock.
    public static let fileName = ".abrlab-lock"

    /// What the claim is for.
    public enum Use: Sendable {
        /// A folder the run writes: created when missing; a lock file that cannot be made is an error.
        case output
        /// A folder the run only reads: never created; where no lock file can be made (a read-only
        /// folder, which no run can change either) it is read unlocked.
        case input
    }

    /// Where the claim stands.
    private enum State {
        case held(descriptor: Int32)
        /// The file system keeps no locks (a Lustre mount without `flock`, say): the run goes on
        /// without the guarantee, and says why.
        case unenforced(reason: String)
        case released
    }

    public let directory: URL
    /// The folders made to hold `directory`, outermost first; a failed run removes them again.
    public let createdFolders: [URL]
    /// The folder's device and inode, so one folder named twice is claimed once.
    let identity: (device: UInt64, inode: UInt64)?
    private var state: State

    /// Claims `directory`, creating it for an ``Use/output`` folder. Throws when another process
    /// holds it, naming that process.
    public init(claiming directory: URL, for use: Use) throws(InputError) {
        self.directory = directory
        createdFolders = use == .output ? try Self.createFolders(directory) : []
        identity = Self.identity(of: directory.path)
        let path = directory.appendingPathComponent(Self.fileName).path
        // Refused, it leaves the folders it made: the run holding them made them too.
        state = try Self.lock(path, use: use, directory: directory)
        Self.registry.add(self)
    }

    deinit {
        if case .held(let descriptor) = state { close(descriptor) }
    }

    /// Why the claim is not enforced, or `nil` when the folder is locked.
    public var unenforcedReason: String? {
        Self.registry.withLock {
            if case .unenforced(let reason) = state { return reason }
            return nil
        }
    }

    /// Ends the claim: removes the lock file and, with `removingCreatedFolders`, the folders made
    /// for it that are empty (a run that failed leaves nothing it created).
    public func release(removingCreatedFolders: Bool) {
        Self.registry.withLock { releaseLocked(removingCreatedFolders: removingCreatedFolders) }
        Self.registry.remove(self)
    }

    /// Ends every claim of the process as a failed run does; for signal handlers, just before exit.
    public static func abandonAll() {
        for lock in registry.takeAll() {
            registry.withLock { lock.releaseLocked(removingCreatedFolders: true) }
        }
    }

    /// Whether the folder at `path` is this claim's folder, under whatever name.
    public func claimsSameFolder(as path: String) -> Bool {
        guard let identity, let other = Self.identity(of: path) else { return false }
        return identity == other
    }

    private func releaseLocked(removingCreatedFolders: Bool) {
        if case .held(let descriptor) = state {
            // Unlinked while still held: a run that opened it meanwhile finds the path changed.
            unlink(directory.appendingPathComponent(Self.fileName).path)
            close(descriptor)
        }
        state = .released
        guard removingCreatedFolders else { return }
        for folder in createdFolders.reversed() where rmdir(folder.path) != 0 { break }
    }

    // MARK: - Taking the lock

    private static func lock(_ path: String, use: Use, directory: URL) throws(InputError) -> State {
        for _ in 0..<64 {
            var descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor < 0, use == .input, errno == EROFS || errno == EACCES {
                descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                if descriptor < 0 { return .unenforced(reason: "the folder is read-only") }
            }
            guard descriptor >= 0 else {
                throw InputError(file: path, "cannot create the lock file: \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let failure = errno
                if failure == EINTR {
                    close(descriptor)
                    continue
                }
                if failure == EWOULDBLOCK {
                    let holder = Self.holder(of: descriptor)
                    close(descriptor)
                    let advice: InputText = use == .output ? "wait for it to end or choose another \(Setting.out)" : "wait for it to end"
                    throw InputError(file: directory.path, mentioning: "in use by another abrlab run (\(holder)); \(advice)")
                }
                close(descriptor)
                unlink(path)
                return .unenforced(reason: "the file system keeps no locks (\(String(cString: strerror(failure))))")
            }
            var held = stat()
            var atPath = stat()
            guard fstat(descriptor, &held) == 0, lstat(path, &atPath) == 0,
                  held.st_dev == atPath.st_dev, held.st_ino == atPath.st_ino else {
                // The file was unlinked by the run that held it: try the one at the path now.
                close(descriptor)
                continue
            }
            let line = Array((ownerLine() + "\n").utf8)
            if ftruncate(descriptor, 0) == 0 {
                _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            }
            return .held(descriptor: descriptor)
        }
        throw InputError(file: path, "cannot lock: the lock file keeps changing")
    }

    /// Creates the missing folders of `directory`, outermost first, and returns those made here.
    private static func createFolders(_ directory: URL) throws(InputError) -> [URL] {
        var missing: [URL] = []
        var folder = directory.standardizedFileURL
        while access(folder.path, F_OK) != 0, folder.path != "/" {
            missing.append(folder)
            folder.deleteLastPathComponent()
        }
        var created: [URL] = []
        for folder in missing.reversed() {
            if mkdir(folder.path, 0o755) == 0 {
                created.append(folder)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                for made in created.reversed() { rmdir(made.path) }
                throw InputError(file: directory.path, "cannot create the output folder: \(reason)")
            }
        }
        var status = stat()
        guard stat(directory.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw InputError(file: directory.path, mentioning: "is not a folder; choose another \(Setting.out)")
        }
        return created
    }

    /// Whether `path` and `other` are one existing folder (or file), under whatever names.
    public static func sameFolder(_ path: String, as other: String) -> Bool {
        guard let identity = identity(of: path), let otherIdentity = Self.identity(of: other) else { return false }
        return identity == otherIdentity
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    // MARK: - Naming the holder

    /// What the lock file says about its holder: `pid 123 on HOST: abrlab compare …`.
    static func ownerLine() -> String {
        var name = [UInt8](repeating: 0, count: 256)
        let found = name.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gethostname($0.baseAddress!, $0.count - 1) == 0 }
        }
        let host = found ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : "this host"
        var arguments = CommandLine.arguments
        if let first = arguments.first { arguments[0] = URL(fileURLWithPath: first).lastPathComponent }
        return clipped("pid \(getpid()) on \(host): \(arguments.joined(separator: " "))")
    }

    /// The holder of the lock on `descriptor`'s file: the kernel's lock table names a holder on
    /// this machine even before it has written its line; the line names one on another machine
    /// sharing the file system.
    static func holder(of descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        let line = text.split(separator: "\n").first.map { clipped(String($0)) }
        let linePID = line.flatMap { $0.hasPrefix("pid ") ? Int32($0.dropFirst(4).prefix { $0.isNumber }) : nil }
        guard let pid = localHolder(of: descriptor) else { return linePID != nil ? line ?? "" : "pid unknown" }
        if pid == linePID, let line { return line }
        let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
            .map { $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } } ?? []
        guard let first = command.first else { return "pid \(pid)" }
        let name = URL(fileURLWithPath: first).lastPathComponent
        return "pid \(pid): \(clipped(([name] + command.dropFirst()).joined(separator: " ")))"
    }

    /// The process of this machine that holds a lock on `descriptor`'s file, from `/proc/locks`.
    private static func localHolder(of descriptor: Int32) -> Int32? {
        var status = stat()
        guard fstat(descriptor, &status) == 0,
              let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        // The kernel prints the device as two-digit (at least) hex major and minor numbers.
        let hex = { (value: UInt64) in String(value, radix: 16).count < 2 ? "0" + String(value, radix: 16) : String(value, radix: 16) }
        let file = "\(hex(major)):\(hex(minor)):\(status.st_ino)"
        for entry in table.split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`; waiters have `->` after the number.
            let fields = entry.split(separator: " ")
            guard fields.count >= 6, fields[1] != "->", fields[5] == file, let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    /// One printable line of at most 240 characters.
    private static func clipped(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return printable.count > 240 ? String(printable.prefix(239)) + "…" : printable
    }

    private static let registry = HeldLocks()
}

/// The claims the process holds, for signal handlers; its lock also guards every claim's state.
private final class HeldLocks: @unchecked Sendable {
    // Sound: `locks` is read and changed only under `lock`.
    private let lock = NSRecursiveLock()
    private var locks: [ObjectIdentifier: FolderLock] = [:]

    func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func add(_ folderLock: FolderLock) {
        withLock { locks[ObjectIdentifier(folderLock)] = folderLock }
    }

    func remove(_ folderLock: FolderLock) {
        withLock { _ = locks.removeValue(forKey: ObjectIdentifier(folderLock)) }
    }

    func takeAll() -> [FolderLock] {
        withLock {
            defer { locks = [:] }
            return Array(locks.values)
        }
    }
}
