import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads an input file (trace, manifest, playlist, script) whole, up to `maximumBytes`.
///
/// Every input is parsed in memory, so an input that is too large is refused before it is read,
/// by the size of the opened file (a link's target). Only a regular file is read: a FIFO would
/// block until something writes to it and a device may stream forever, so either is refused at
/// once, unread, saying what it is. Nothing in abrlab reads an input from a pipe or stdin.
public enum InputFile {
    /// 64 MiB: about 100 times the largest public trace (Sabre's 3G logs, 0.6 MB), room for a
    /// Mahimahi trace of an hour at 100 Mbit/s (about 60 MB), and a bound on the memory a
    /// parse can take.
    public static let maximumBytes = 64 << 20

    /// The file's bytes; an `InputError` naming the file when it is missing, unreadable, a
    /// folder, not a regular file or larger than `limit` bytes.
    public static func read(_ url: URL, limit: Int = maximumBytes) throws(InputError) -> Data {
        try read(pathBytes: Array(url.path.utf8), file: TextFile.displayName(url), limit: limit)
    }

    /// The bytes of the file at `pathBytes`, a path that need not be UTF-8 (a file name no
    /// `String` path reaches), named `file` in errors; only a regular file is read, up to `limit`.
    public static func read(pathBytes: [UInt8], file: String, limit: Int = maximumBytes) throws(InputError) -> Data {
        let (descriptor, size) = try openRegular(pathBytes: pathBytes, file: file)
        defer { close(descriptor) }
        guard size <= Int64(limit) else { throw tooLarge(file, limit: limit, size: size) }
        var data = Data(capacity: Int(size))
        // A chunk the file's size (a mebibyte at most) reads a small file in one call: zeroing a
        // mebibyte for each of a thousand small traces cost more than reading them.
        var chunk = [UInt8](repeating: 0, count: Int(min(size + 1, 1 << 20)))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw InputError(file: file, "cannot read the file (\(String(cString: strerror(errno))))") }
            if count == 0 { break }
            data.append(contentsOf: chunk[..<count])
            // A file that grows while it is read stops one chunk past the limit.
            if data.count > limit { throw tooLarge(file, limit: limit, size: nil) }
        }
        return data
    }

    /// The regular file at `pathBytes` opened for reading, and its size (a link's target's).
    /// It opens without waiting (`O_NONBLOCK`: a FIFO with no writer would block `open` itself)
    /// and is refused unread when it is not a regular file; the caller closes the descriptor.
    package static func openRegular(pathBytes: [UInt8], file: String) throws(InputError) -> (descriptor: Int32, size: Int64) {
        let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw InputError(file: file, "no such file") }
            throw InputError(file: file, "cannot read the file (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw InputError(file: file, "cannot read the file (\(reason))")
        }
        guard let problem = notRegular(status.st_mode) else { return (descriptor, Int64(status.st_size)) }
        close(descriptor)
        throw InputError(file: file, problem)
    }

    /// What a file of `mode` is when it is not a regular file, as a message says it: `is a FIFO,
    /// not a regular file`; nil for a regular file.
    public static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a folder, not a file"
        case S_IFIFO: "is a FIFO (named pipe), not a regular file; inputs are read from files"
        case S_IFCHR: "is a character device, not a regular file; inputs are read from files"
        case S_IFBLK: "is a block device, not a regular file; inputs are read from files"
        case S_IFSOCK: "is a socket, not a regular file; inputs are read from files"
        default: "is not a regular file; inputs are read from files"
        }
    }

    /// `64 MiB`, `1.5 GiB`: a size for messages.
    public static func sizeText(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : "\(NumberText.plain((value * 10).rounded() / 10)) \(units[unit])"
    }

    private static func tooLarge(_ file: String, limit: Int, size: Int64?) -> InputError {
        let found = size.map { "is \(sizeText($0))" } ?? "holds more than that"
        return InputError(file: file, "is too large: inputs are read whole and limited to \(sizeText(Int64(limit))); this file \(found)")
    }
}
