#if canImport(Glibc)
import Glibc
#endif

extension InputFile {
    /// Why ``regularFile(atPath:limit:)`` gave no bytes.
    public enum ReadFailure: Error, Equatable, Sendable {
        case missing
        case folder
        /// A pipe, device or socket: never read, so it cannot block or stream forever.
        case notRegularFile
        /// Over the limit: by the size of the opened file (a link's target, not the link), or,
        /// for a file that grew while it was read, `nil`.
        case tooLarge(bytes: Int64?)
        case unreadable(String)
    }

    /// The bytes of the regular file at `path`, links followed. The size checked against `limit`
    /// is the opened file's (fstat), before anything is read, and at most `limit` + 1 bytes are
    /// ever read, whatever the file claims or grows to.
    public static func regularFile(atPath path: String, limit: Int) -> Result<[UInt8], ReadFailure> {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below unread.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.folder)
        default: return .failure(.notRegularFile)
        }
        guard Int64(status.st_size) <= Int64(limit) else { return .failure(.tooLarge(bytes: Int64(status.st_size))) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while filled <= limit {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(max(4096, bytes.count), limit + 1 - filled))) }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { return .failure(.tooLarge(bytes: nil)) }
        bytes.removeSubrange(filled...)
        return .success(bytes)
    }
}
