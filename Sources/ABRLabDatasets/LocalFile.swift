import ABRLab
import ABRLabFormats
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files of a fetch and a verify, read and written with POSIX calls whose failures become
/// errors naming the file and the cause: Foundation's non-throwing FileHandle calls trap on
/// Linux (a full disk, a folder where a file should be), and a FIFO opened for reading without
/// `O_NONBLOCK` waits for a writer forever.
package enum LocalFile {
    /// What lies at a path where a file of `bytes` bytes is expected.
    package enum Examined: Error, Equatable {
        case missing
        case folder
        /// A FIFO, a device or a socket, named (`a FIFO`); never read.
        case special(String)
        case size(Int)
        case unreadable(String)
        /// A regular file of the expected size, hashed.
        case sha256(String)
    }

    package static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A failed call's errno.
    package struct Failure: Error {
        package let code: Int32
    }

    /// `a FIFO`, `a device`: what a file that is not regular is, for messages.
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// `path` opened for reading when it is a regular file, with its size; else what it is.
    /// `O_NONBLOCK`: opening a FIFO does not wait for a writer; it is refused unread.
    package static func openRegular(_ path: String) -> Result<(descriptor: Int32, size: Int), Examined> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT || code == ENOTDIR ? .missing : .unreadable(errorText(code)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(.unreadable(errorText(code)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(status.st_mode & S_IFMT == S_IFDIR ? .folder : .special(kind(status.st_mode)))
        }
        return .success((descriptor, Int(status.st_size)))
    }

    /// Reads up to `buffer.count` bytes, retrying on EINTR: the count (0 at the end), or errno.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            if errno != EINTR { return .failure(Failure(code: errno)) }
        }
    }

    /// The file at `path` checked against a size: its size from `fstat` first, so a file of the
    /// wrong size is never read, then its SHA-256 a block at a time, in bounded memory.
    package static func examine(_ path: String, bytes expected: Int) -> Examined {
        let (descriptor, size): (Int32, Int)
        switch openRegular(path) {
        case .success(let opened): (descriptor, size) = opened
        case .failure(let examined): return examined
        }
        defer { close(descriptor) }
        guard size == expected else { return .size(size) }
        let hasher = StreamingSHA256()
        var total = 0
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while total <= expected {
            let count: Int
            switch block.withUnsafeMutableBytes({ read(descriptor, into: $0) }) {
            case .success(let read): count = read
            case .failure(let failure): return .unreadable(errorText(failure.code))
            }
            if count == 0 { break }
            block.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            total += count
        }
        // The file changed size while it was read.
        guard total == expected else { return .size(total) }
        return .sha256(hasher.finish())
    }

    /// Makes `folder` and its parents with `mkdir`, so a component that is a file is named as
    /// such (`what` says whose folder it is), not as Foundation's error 512.
    package static func makeFolder(_ folder: URL, what: String = "") throws(InputError) {
        var prefix = ""
        for component in folder.standardizedFileURL.path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            var status = stat()
            if code == EEXIST, stat(prefix, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR { continue }
                throw InputError(file: prefix, "is a file, not a folder" + what)
            }
            throw InputError(file: prefix, "cannot create the folder: \(errorText(code))" + what)
        }
    }

    /// `text` cut to `limit` characters: a server's or a file's words quoted in a message.
    package static func clipped(_ text: String, limit: Int = 160) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

/// A partial download, opened to append: each write checked, so a full disk ends the fetch with a
/// line naming the file, and what was written stays for the next fetch to resume.
package final class PartialFile {
    package let path: String
    private var descriptor: Int32
    /// The bytes the file holds.
    package private(set) var length: Int

    package init(_ path: String) throws(InputError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(file: path, "cannot write the partial download: \(LocalFile.errorText(errno))") }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw InputError(file: path, "cannot write the partial download: \(LocalFile.errorText(code))")
        }
        length = Int(end)
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    package func append(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw InputError(file: path, "cannot write: \(LocalFile.errorText(count < 0 ? errno : ENOSPC))") }
            offset += count
            length += count
        }
    }

    package func append(contentsOf bytes: some ContiguousBytes) throws(InputError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(InputError) in try append(buffer) } }.get()
    }

    /// Empties the file, for a server that sends the whole file instead of the rest.
    package func restart() throws(InputError) {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw InputError(file: path, "cannot write: \(LocalFile.errorText(errno))")
        }
        length = 0
    }

    /// Closes the file; an error a file system reports only now (NFS, a quota) is thrown.
    package func close() throws(InputError) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        guard result == 0 else { throw InputError(file: path, "cannot write: \(LocalFile.errorText(errno))") }
    }
}
